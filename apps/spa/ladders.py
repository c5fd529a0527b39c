"""SPA-Bench-style ladders as data: per ladder its kind (kinds live beside this module), SPA's
category, the SPA-Bench ladder it follows, and per level the goal (English and, for the ladders
with a Chinese variant, Chinese), the golden steps and the key components.

Goals and key components are Jinja templates over the level's params. Key components are what
SPA's annotators wrote: short texts the final screen shows (matched lower-cased on the screens'
text, the episode's screens from the last back). Categories: SPA-Bench's app categories of Figure 6 / Tables 6-7, lower-cased with hyphens
(`general-tool`, `information-management`, `media-entertainment`, `social-sharing`).
"""
from __future__ import annotations

import dataclasses

from taskkit.apps.spa.clock import AlarmOnKind, AlarmReplaceKind
from taskkit.apps.spa.kind import Kind
from taskkit.apps.spa.media import FilesKind, RecordingKind, RetroKind
from taskkit.apps.spa.notes import ExpenseKind, MarkorFolderKind, MarkorNoteKind, MarkorTidyKind, RecipeKind
from taskkit.apps.spa.people import ContactsBatchKind, ContactsKind, SmsKind
from taskkit.apps.spa.system import DarkVibrateAirplaneKind, WifiBluetoothDarkKind


@dataclasses.dataclass(frozen=True)
class Level:
    goal: str
    golden: int
    keys: tuple[str, ...]
    goal_zh: str = ""
    keys_zh: tuple[str, ...] = ()  # when the Chinese screen shows other words (else `keys`)


@dataclasses.dataclass(frozen=True)
class Ladder:
    name: str  # the task names' stem: Spa<name>L<level>[Zh]
    kind: type[Kind]
    category: str
    follows: str  # the SPA-Bench ladder whose wording or shape it follows
    levels: tuple[Level, Level, Level]

    @property
    def chinese(self) -> bool:
        return all(level.goal_zh for level in self.levels)


LADDERS: tuple[Ladder, ...] = (
    Ladder("ContactsCreate", ContactsKind, "information-management", "Contacts (Create a contact named 'Agent')", (
        Level("Create a contact named '{{ first }}'.", 4, ("{{ first }}",),
              "新建一个联系人,名字是“{{ first }}”。"),
        Level("Create a contact named '{{ first }} {{ last }}'. The phone number is {{ number }}.", 6,
              ("{{ first }}", "{{ last }}"),
              "新建一个联系人,名字是“{{ first }}”,姓氏是“{{ last }}”,电话号码是{{ number }}。"),
        Level("Create a contact named '{{ first }} {{ last }}'. The phone number is {{ number }}. "
              "Update the label for the contact's phone number to {{ label }}.", 8, ("{{ first }}", "{{ last }}"),
              "新建一个联系人,名字是“{{ first }}”,姓氏是“{{ last }}”,电话号码是{{ number }},"
              "并把这个号码的标签改为“{{ label }}”。"),
    )),
    Ladder("SmsReply", SmsKind, "social-sharing", "WhatsApp (Send a message 'Hi' to myself)", (
        Level("Reply to {{ name1 }} in Simple SMS Messenger with the message '{{ message1 }}'.", 4,
              ("{{ message1 }}",),
              "在 Simple SMS Messenger 中回复{{ name1 }},内容为“{{ message1 }}”。"),
        Level("Reply to {{ name1 }} in Simple SMS Messenger with the message '{{ message1 }}'. Then reply to "
              "{{ name2 }} with '{{ message2 }}'.", 8, ("{{ message2 }}",),
              "在 Simple SMS Messenger 中回复{{ name1 }},内容为“{{ message1 }}”;然后回复{{ name2 }},"
              "内容为“{{ message2 }}”。"),
        Level("Reply to {{ name1 }} in Simple SMS Messenger with the message '{{ message1 }}'. Then reply to "
              "{{ name2 }} with '{{ message2 }}'. Finally send '{{ message3 }}' to the new number {{ number3 }}.", 14,
              ("{{ message3 }}",),
              "在 Simple SMS Messenger 中回复{{ name1 }},内容为“{{ message1 }}”;然后回复{{ name2 }},"
              "内容为“{{ message2 }}”;最后给新号码{{ number3 }}发送“{{ message3 }}”。"),
    )),
    Ladder("MarkorNote", MarkorNoteKind, "information-management", "Keep Notes (Create a new note. Write ...)", (
        Level("Create a new note in Markor named '{{ name }}'.", 4, ("{{ name }}",),
              "在 Markor 中新建一个名为“{{ name }}”的笔记。"),
        Level("Create a new note in Markor named '{{ name }}'. Write '{{ text }}' in the content.", 6,
              ("{{ name }}",),
              "在 Markor 中新建一个名为“{{ name }}”的笔记,内容写“{{ text }}”。"),
        Level("Create a new note in Markor named '{{ name }}'. Write '{{ text }}' in the content. Then create "
              "another note named '{{ name2 }}' with the content '{{ text2 }}'.", 11, ("{{ name }}", "{{ name2 }}"),
              "在 Markor 中新建一个名为“{{ name }}”的笔记,内容写“{{ text }}”。然后再新建一个名为“{{ name2 }}”"
              "的笔记,内容写“{{ text2 }}”。"),
    )),
    Ladder("MarkorFolder", MarkorFolderKind, "information-management", "Evernote (Create a new notebook 'Agent')", (
        Level("Create a new folder '{{ folder }}' in Markor.", 4, ("{{ folder }}",),
              "在 Markor 中新建一个文件夹“{{ folder }}”。"),
        Level("Create a new folder '{{ folder }}' in Markor. Create a new note in the folder named '{{ name }}'.", 8,
              ("{{ folder }}",),
              "在 Markor 中新建一个文件夹“{{ folder }}”,并在这个文件夹里新建一个名为“{{ name }}”的笔记。"),
        Level("Create a new folder '{{ folder }}' in Markor. Create a new note in the folder named '{{ name }}'. "
              "Write '{{ text }}' in the note and return to the '{{ folder }}' folder to confirm the note.", 10,
              ("{{ folder }}",),
              "在 Markor 中新建一个文件夹“{{ folder }}”,并在这个文件夹里新建一个名为“{{ name }}”的笔记。"
              "在笔记里写上“{{ text }}”,然后返回“{{ folder }}”文件夹确认笔记已创建。"),
    )),
    Ladder("RecipeAdd", RecipeKind, "information-management", "Microsoft OneNote (Create a new page with title ...)", (
        Level("Add a new recipe titled '{{ title }}' in Broccoli.", 4, ("{{ title }}",),
              "在 Broccoli 中添加一个名为“{{ title }}”的菜谱。"),
        Level("Add a new recipe titled '{{ title }}' in Broccoli. Its description is '{{ description }}' and it "
              "makes {{ servings }}.", 6, ("{{ title }}",),
              "在 Broccoli 中添加一个名为“{{ title }}”的菜谱,简介是“{{ description }}”,份量为“{{ servings }}”。"),
        Level("Add a new recipe titled '{{ title }}' in Broccoli. Its description is '{{ description }}' and it "
              "makes {{ servings }}. The ingredients are '{{ ingredients }}' and the directions are "
              "'{{ directions }}'.", 8, ("{{ title }}",),
              "在 Broccoli 中添加一个名为“{{ title }}”的菜谱,简介是“{{ description }}”,份量为“{{ servings }}”,"
              "配料是“{{ ingredients }}”,做法是“{{ directions }}”。"),
    )),
    Ladder("ExpenseEntry", ExpenseKind, "information-management", "Google Tasks (Create a new list. Add new task ...)", (
        Level("Delete the expense '{{ old }}' from Pro Expense.", 4, ("home",),  # More, then the row in the logs
              "在 Pro Expense 中删除“{{ old }}”这笔支出。"),
        Level("Delete the expense '{{ old }}' from Pro Expense. Then add an expense '{{ name }}' of "
              "{{ amount | money }}.", 9, ("{{ name }}",),
              "在 Pro Expense 中删除“{{ old }}”这笔支出,然后添加一笔“{{ name }}”支出,金额为{{ amount | money }}。"),
        Level("Delete the expense '{{ old }}' from Pro Expense. Then add an expense '{{ name }}' of "
              "{{ amount | money }} in the {{ category }} category with the note '{{ note }}'.", 11, ("{{ name }}",),
              "在 Pro Expense 中删除“{{ old }}”这笔支出,然后添加一笔“{{ name }}”支出,金额为{{ amount | money }},"
              "类别选“{{ category }}”,备注写“{{ note }}”。"),
    )),
    Ladder("ClockAlarmOn", AlarmOnKind, "general-tool", "Clock (Set an alarm for 9am on weekdays)", (
        Level("Turn on the {{ hour }}:{{ '%02d' % minutes }} am alarm in Clock.", 3, ("alarm",)),
        Level("Turn on the {{ hour }}:{{ '%02d' % minutes }} am alarm in Clock and set it to repeat on weekdays.",
              9, ("alarm",)),
        Level("Turn on the {{ hour }}:{{ '%02d' % minutes }} am alarm in Clock and set it to repeat on weekdays. "
              "Then set another alarm for {{ hour2 }}:{{ '%02d' % minutes2 }} am.", 13,
              ("alarm",)),
    )),
    Ladder("ClockAlarmReplace", AlarmReplaceKind, "general-tool", "Clock (... Set another alarm for 11am on weekends)", (
        Level("Delete the {{ hour }}:{{ '%02d' % minutes }} am alarm in Clock.", 4, ("alarm",)),
        Level("Delete the {{ hour }}:{{ '%02d' % minutes }} am alarm in Clock. Then turn on the 9:00 am alarm.", 5,
              ("alarm",)),
        Level("Delete the {{ hour }}:{{ '%02d' % minutes }} am alarm in Clock. Then turn on the 9:00 am alarm. "
              "Set another alarm for {{ hour2 }}:{{ '%02d' % minutes2 }} am on weekends.", 11,
              ("alarm",)),
    )),
    Ladder("FilesTidy", FilesKind, "general-tool", "Files (Go to the 'DCIM' folder ... move the folder)", (
        Level("Delete the file '{{ file1 }}' from the internal storage in Files.", 4, ("download",)),
        Level("Delete the file '{{ file1 }}' from the internal storage in Files. Then move '{{ file2 }}' into the "
              "'{{ folder }}' folder.", 9, ("{{ folder }}",)),
        Level("Delete the file '{{ file1 }}' from the internal storage in Files. Then move '{{ file2 }}' into the "
              "'{{ folder }}' folder. Finally go to the '{{ folder2 }}' folder and delete '{{ file3 }}' there.", 13,
              ("{{ folder2 }}",)),
    )),
    Ladder("AudioRecording", RecordingKind, "general-tool", "Keep Notes (Create a new note; then give it a title)", (
        Level("Record an audio clip of about {{ seconds }} seconds with Audio Recorder.", 3, ("start recording",)),
        Level("Record an audio clip of about {{ seconds }} seconds with Audio Recorder and name it '{{ name }}'.", 6,
              ("start recording",)),
        Level("Record an audio clip of about {{ seconds }} seconds with Audio Recorder and name it '{{ name }}'. "
              "Then record a second clip and name it '{{ name2 }}'.", 11, ("start recording",)),
    )),
    Ladder("RetroQueue", RetroKind, "media-entertainment", "Spotify (Add this song to the new playlist ...)", (
        Level("Add the song '{{ song1 }}' to the playing queue in Retro Music.", 4, ("songs",)),
        Level("Add the song '{{ song1 }}' to the playing queue in Retro Music. Then add the song '{{ song2 }}' to a "
              "new playlist named '{{ playlist }}'.", 9, ("songs",)),
        Level("Add the song '{{ song1 }}' to the playing queue in Retro Music. Then add the song '{{ song2 }}' to a "
              "new playlist named '{{ playlist }}'. Then add another song '{{ song3 }}' to the same playlist.", 12,
              ("songs", "playlists")),
    )),
    Ladder("SettingsDisplaySound", DarkVibrateAirplaneKind, "general-tool", "Settings (... Then turn the dark theme on)", (
        Level("Turn the dark theme on in Settings.", 3, ("display",)),
        Level("Turn the dark theme on in Settings. Then turn off vibrate for calls.", 6, ("sound & vibration",)),
        Level("Turn the dark theme on in Settings. Then turn off vibrate for calls. Finally turn on airplane mode.", 9,
              ("network & internet",)),
    )),
    Ladder("SettingsConnections", WifiBluetoothDarkKind, "general-tool", "Settings (Go to notification settings ...)", (
        Level("Turn off Wi-Fi in Settings.", 4, ("internet",)),
        Level("Turn off Wi-Fi in Settings. Then turn off Bluetooth.", 9, ("bluetooth",)),
        Level("Turn off Wi-Fi in Settings. Then turn off Bluetooth. Finally turn the dark theme on.", 13,
              ("display",)),
    )),
    Ladder("MarkorTidy", MarkorTidyKind, "information-management", "Files (... Then move the folder ...)", (
        Level("Delete the note '{{ note1 }}' in Markor.", 4, ("quicknote",)),
        Level("Delete the note '{{ note1 }}' in Markor. Then rename the note '{{ note2 }}' to '{{ renamed }}'.", 8,
              ("{{ renamed }}",)),
        Level("Delete the note '{{ note1 }}' in Markor. Then rename the note '{{ note2 }}' to '{{ renamed }}'. "
              "Finally move the note '{{ note3 }}' into the '{{ folder }}' folder.", 13, ("{{ folder }}",)),
    )),
    Ladder("ContactsBatch", ContactsBatchKind, "information-management", "Contacts ('Agent', then 'Agent Two' ...)", (
        Level("Create a contact named '{{ first1 }}'.", 4, ("{{ first1 }}",)),
        Level("Create a contact named '{{ first1 }}'. Then create a contact named '{{ first2 }}' with the phone "
              "number {{ number2 }}.", 9, ("{{ first2 }}",)),
        Level("Create a contact named '{{ first1 }}'. Then create a contact named '{{ first2 }}' with the phone "
              "number {{ number2 }}. Finally create a contact named '{{ first3 }}'.", 13, ("{{ first3 }}",)),
    )),
)
