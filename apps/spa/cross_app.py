"""SPA-Bench's cross-app tasks (arXiv:2410.15164, Sec. 3.2, Sec. 5.2 / Figure 5, Appendix B.2.3-4
and E), on the apps taskkit models.

SPA takes GUI Odyssey's six task types: three Level 1 tasks (two apps) for each of General Tool,
Information Management, Web Shopping, Media Entertainment and Social Sharing, and five Level 2
tasks (three apps) of the Multi-Apps type. A task is a list of subtasks, one app each, adjacent
ones on different apps (Appendix E.1); a subtask may need what an earlier one produced (its
"history"/"memory": here a `binding`, so the goal names where the value is, not the value).

Each subtask here is one level of a single-app ladder (ladders.py), judged by its device state
only — SPA's cross-app tasks have no key components (Sec. 3.3: "annotations include only task
descriptions and human-executed trajectories"). The task is `taskkit.composite.compose(...,
ordered=True)`: subtasks judged in order, each only if the one before passed (Appendix E.3), so
the score is the share of the passed prefix and 1.0 only when all pass. Golden steps are the sum
of the subtasks' (the GUI reference's length); the budget twice that, as for the ladders.
"""
from __future__ import annotations

import dataclasses

from taskkit.apps.spa.ladders import LADDERS
from taskkit.apps.spa.task import DIFFICULTY, LANGUAGE_TAG, SpaTask, ladder_task
from taskkit.composite import CompositeTask, compose
from taskkit.validators import Validator

#: SPA's cross-app types (GUI Odyssey's), as category tags.
TYPES = ("general-tool", "information-management", "web-shopping", "media-entertainment", "social-sharing",
         "multi-apps")
CROSS_APP_TAG = "cross-app"


class SpaSubtask(SpaTask, register=False):
    """A ladder level as a cross-app task's subtask: judged by the device state alone."""

    abstract = True

    def validator(self) -> Validator:
        return self.kind.check()

    @classmethod
    def registered_twin(cls) -> str:
        """The registered ladder task this subtask is but for its check (key components too): the
        same params, set-up and GUI reference, proven as that task."""
        return cls.name.replace("SpaSubtask", "Spa", 1)


@dataclasses.dataclass(frozen=True)
class Part:
    """One subtask: its label in the goal's params, the ladder and level it is."""

    label: str
    ladder: str
    level: int


@dataclasses.dataclass(frozen=True)
class CrossApp:
    """One cross-app task: SPA's type, the SPA task it follows, its subtasks in order, its goal
    (Jinja over `label.param`) in English and, where it has one, Chinese, and the bindings that
    carry one subtask's value into a later one (`"note.text": "contact.number"`)."""

    name: str
    type: str
    follows: str
    parts: tuple[Part, ...]
    goal: str
    goal_zh: str = ""
    bindings: tuple[tuple[str, str], ...] = ()

    @property
    def level(self) -> int:
        """SPA's cross-app level: 1 for two apps, 2 for three."""
        return len(self.parts) - 1


_ALARM = "{{ clock.hour }}:{{ '%02d' % clock.minutes }}"
P = Part

CROSS_APPS: tuple[CrossApp, ...] = (
    # --- General Tool: a system setting and a tool app (SPA: "In the Settings app, enable 'Data Saver'
    # mode. Open the Clock app and set an alarm for 6:00 AM."; 进入设置,切换到深色模式,然后打开微信…)
    CrossApp("DarkThemeAlarm", "general-tool", "Clock, Setting (enable 'Data Saver', then set an alarm)",
             (P("settings", "SettingsDisplaySound", 1), P("clock", "ClockAlarmOn", 1)),
             f"In Settings, turn the dark theme on. Then open Clock and turn on the {_ALARM} am alarm.",
             f"进入设置,打开深色主题,然后打开时钟,开启上午{_ALARM}的闹钟。"),
    CrossApp("WifiOffAlarmDelete", "general-tool", "设置, 抖音 (在设置APP中开启省流模式,然后打开抖音)",
             (P("settings", "SettingsConnections", 1), P("clock", "ClockAlarmReplace", 1)),
             f"Turn off Wi-Fi in Settings. Then delete the {_ALARM} am alarm in Clock.",
             f"在设置中关闭WLAN,然后在时钟里删除上午{_ALARM}的闹钟。"),
    CrossApp("FilesThenSettings", "general-tool", "Google Play Store, Setting (uninstall an app, then check Settings)",
             (P("files", "FilesTidy", 1), P("settings", "SettingsDisplaySound", 2)),
             "In Files, delete '{{ files.file1 }}' from the internal storage. Then, in Settings, turn the dark "
             "theme on and turn off vibrate for calls."),
    # --- Information Management: what one app holds, recorded in another (SPA: "Using Chrome, search for
    # the date of the next Winter Olympics opening ceremony and then set a reminder for that date in
    # your Calendar.")
    CrossApp("ContactNumberToNote", "information-management", "Calendar, Chrome (a date found, then recorded)",
             (P("contact", "ContactsCreate", 2), P("note", "MarkorNote", 2)),
             "Create a contact named '{{ contact.first }} {{ contact.last }}' with the phone number "
             "{{ contact.number }}. Then create a new note in Markor named '{{ note.name }}' and write the "
             "contact's phone number in it.",
             "新建一个联系人,名字是“{{ contact.first }}”,姓氏是“{{ contact.last }}”,电话号码是{{ contact.number }}。"
             "然后在 Markor 中新建一个名为“{{ note.name }}”的笔记,内容写这个联系人的电话号码。",
             (("note.text", "contact.number"),)),
    CrossApp("NoteToRecipe", "information-management", "Keep Notes, LinkedIn (found, then recorded in a note)",
             (P("note", "MarkorNote", 2), P("recipe", "RecipeAdd", 2)),
             "Create a new note in Markor named '{{ note.name }}'. Write '{{ note.text }}' in the content. Then add "
             "a new recipe titled '{{ recipe.title }}' in Broccoli that makes {{ recipe.servings }}, with the "
             "note's text as its description.",
             "在 Markor 中新建一个名为“{{ note.name }}”的笔记,内容写“{{ note.text }}”。然后在 Broccoli 中添加一个"
             "名为“{{ recipe.title }}”的菜谱,份量为“{{ recipe.servings }}”,简介就用这条笔记的内容。",
             (("recipe.description", "note.text"),)),
    CrossApp("ExpenseToNote", "information-management", "Spotify, Chrome (identified in one app, kept in another)",
             (P("expense", "ExpenseEntry", 2), P("note", "MarkorNote", 2)),
             "Delete the expense '{{ expense.old }}' from Pro Expense. Then add an expense '{{ expense.name }}' of "
             "{{ expense.amount | money }}. Finally create a new note in Markor named '{{ note.name }}' whose "
             "content is the name of the expense you added.",
             "在 Pro Expense 中删除“{{ expense.old }}”这笔支出,然后添加一笔“{{ expense.name }}”支出,金额为"
             "{{ expense.amount | money }}。最后在 Markor 中新建一个名为“{{ note.name }}”的笔记,内容写你刚添加的"
             "支出名称。",
             (("note.text", "expense.name"),)),
    # --- Web Shopping: an item found in one app, bought in another; no modelled app sells, so the
    # purchase is logged in Pro Expense (SPA: "Search for 'Circe by Madeline Miller' on Facebook, …
    # head over to eBay, search the book, add it to watchlist.")
    CrossApp("RecipeGroceries", "web-shopping", "eBay, Facebook (found in one app, bought in another)",
             (P("recipe", "RecipeAdd", 1), P("expense", "ExpenseEntry", 2)),
             "Add a new recipe titled '{{ recipe.title }}' in Broccoli. Then, in Pro Expense, delete the expense "
             "'{{ expense.old }}' and log the groceries for the recipe: an expense named after the recipe, of "
             "{{ expense.amount | money }}.",
             "在 Broccoli 中添加一个名为“{{ recipe.title }}”的菜谱。然后在 Pro Expense 中删除“{{ expense.old }}”这笔"
             "支出,再为这道菜的食材记一笔支出:名称就用菜谱的名字,金额为{{ expense.amount | money }}。",
             (("expense.name", "recipe.title"),)),
    CrossApp("ShoppingListExpense", "web-shopping", "Amazon, Temu (prices compared, the cheaper bought)",
             (P("note", "MarkorNote", 2), P("expense", "ExpenseEntry", 3)),
             "Create a new note in Markor named '{{ note.name }}'. Write '{{ note.text }}' in the content. Then "
             "delete the expense '{{ expense.old }}' from Pro Expense and add an expense '{{ expense.name }}' of "
             "{{ expense.amount | money }} in the {{ expense.category }} category, with the note's text as its note.",
             "在 Markor 中新建一个名为“{{ note.name }}”的笔记,内容写“{{ note.text }}”。然后在 Pro Expense 中删除"
             "“{{ expense.old }}”这笔支出,再添加一笔“{{ expense.name }}”支出,金额为{{ expense.amount | money }},"
             "类别选“{{ expense.category }}”,备注就用这条笔记的内容。",
             (("expense.note", "note.text"),)),
    CrossApp("SellerReplyExpense", "web-shopping", "Airbnb, Instagram (found in a social app, booked in another)",
             (P("sms", "SmsReply", 1), P("expense", "ExpenseEntry", 2)),
             "Reply to {{ sms.name1 }} in Simple SMS Messenger with the message '{{ sms.message1 }}'. Then delete "
             "the expense '{{ expense.old }}' from Pro Expense and add an expense '{{ expense.name }}' of "
             "{{ expense.amount | money }}.",
             "在 Simple SMS Messenger 中回复{{ sms.name1 }},内容为“{{ sms.message1 }}”。然后在 Pro Expense 中删除"
             "“{{ expense.old }}”这笔支出,再添加一笔“{{ expense.name }}”支出,金额为{{ expense.amount | money }}。"),
    # --- Media Entertainment (SPA: "Search for a relaxing soundscape video on YouTube, use the Clock app
    # to set a timer for 3 hours, then go back to YouTube and play the video.")
    CrossApp("QueueThenAlarm", "media-entertainment", "Clock, YouTube (media queued, then a clock set)",
             (P("music", "RetroQueue", 1), P("clock", "ClockAlarmOn", 1)),
             "Add the song '{{ music.song1 }}' to the playing queue in Retro Music. Then turn on the "
             f"{_ALARM} am alarm in Clock.",
             f"在 Retro Music 中把歌曲“{{{{ music.song1 }}}}”加入播放队列,然后在时钟里开启上午{_ALARM}的闹钟。"),
    CrossApp("PlaylistToNote", "media-entertainment", "QQ音乐, bilibili (记录下一首歌曲,再去另一个应用)",
             (P("music", "RetroQueue", 2), P("note", "MarkorNote", 2)),
             "Add the song '{{ music.song1 }}' to the playing queue in Retro Music. Then add the song "
             "'{{ music.song2 }}' to a new playlist named '{{ music.playlist }}'. Finally create a new note in "
             "Markor named '{{ note.name }}' with the playlist's name as its content.",
             bindings=(("note.text", "music.playlist"),)),
    CrossApp("RecordingThenWifi", "media-entertainment", "Google Play Store, YouTube (media, then a tool)",
             (P("recorder", "AudioRecording", 2), P("settings", "SettingsConnections", 1)),
             "Record an audio clip of about {{ recorder.seconds }} seconds with Audio Recorder and name it "
             "'{{ recorder.name }}'. Then turn off Wi-Fi in Settings."),
    # --- Social Sharing: something found in one app, sent to a friend (SPA: "Listen to a Reggaeton album
    # on Spotify, then share the album's name with a friend on Facebook.")
    CrossApp("SongToFriend", "social-sharing", "Spotify, Facebook (share the album's name with a friend)",
             (P("music", "RetroQueue", 1), P("sms", "SmsReply", 1)),
             "Add the song '{{ music.song1 }}' to the playing queue in Retro Music. Then reply to {{ sms.name1 }} "
             "in Simple SMS Messenger with the song's title.",
             "在 Retro Music 中把歌曲“{{ music.song1 }}”加入播放队列,然后在 Simple SMS Messenger 中回复"
             "{{ sms.name1 }},内容就是这首歌的歌名。",
             (("sms.message1", "music.song1"),)),
    CrossApp("NoteToFriend", "social-sharing", "BBC News, Gmail (read an article, share it)",
             (P("note", "MarkorNote", 2), P("sms", "SmsReply", 1)),
             "Create a new note in Markor named '{{ note.name }}'. Write '{{ note.text }}' in the content. Then "
             "share the note's text with {{ sms.name1 }} by replying in Simple SMS Messenger.",
             "在 Markor 中新建一个名为“{{ note.name }}”的笔记,内容写“{{ note.text }}”。然后在 Simple SMS Messenger "
             "中回复{{ sms.name1 }},把这条笔记的内容分享给对方。",
             (("sms.message1", "note.text"),)),
    CrossApp("RecipeToFriend", "social-sharing", "知乎, 微博 (进入一个问题,然后将其转发)",
             (P("recipe", "RecipeAdd", 2), P("sms", "SmsReply", 1)),
             "Add a new recipe titled '{{ recipe.title }}' in Broccoli. Its description is "
             "'{{ recipe.description }}' and it makes {{ recipe.servings }}. Then reply to {{ sms.name1 }} in "
             "Simple SMS Messenger with the recipe's title.",
             "在 Broccoli 中添加一个名为“{{ recipe.title }}”的菜谱,简介是“{{ recipe.description }}”,份量为"
             "“{{ recipe.servings }}”。然后在 Simple SMS Messenger 中回复{{ sms.name1 }},内容就是这个菜谱的名字。",
             (("sms.message1", "recipe.title"),)),
    # --- Multi-Apps, Level 2: three apps (SPA: "Arrange a business meeting using Zoom, copy the sharing
    # text, go to WhatsApp, send the copied text to a contact, set an alarm using the Clock app at the
    # meeting time.")
    CrossApp("NoteSmsAlarm", "multi-apps", "Clock, WhatsApp, Zoom (a text written, sent, then an alarm)",
             (P("note", "MarkorNote", 2), P("sms", "SmsReply", 1), P("clock", "ClockAlarmOn", 1)),
             "Create a new note in Markor named '{{ note.name }}'. Write '{{ note.text }}' in the content. Then "
             "send the note's text to {{ sms.name1 }} as a reply in Simple SMS Messenger. Finally turn on the "
             f"{_ALARM} am alarm in Clock.",
             "在 Markor 中新建一个名为“{{ note.name }}”的笔记,内容写“{{ note.text }}”。然后在 Simple SMS Messenger "
             f"中回复{{{{ sms.name1 }}}},内容就是这条笔记的内容。最后在时钟里开启上午{_ALARM}的闹钟。",
             (("sms.message1", "note.text"),)),
    CrossApp("ContactNoteDarkTheme", "multi-apps", "AccuWeather, Evernote, Expedia (found, recorded, checked)",
             (P("contact", "ContactsCreate", 2), P("note", "MarkorNote", 2), P("settings", "SettingsDisplaySound", 1)),
             "Create a contact named '{{ contact.first }} {{ contact.last }}' with the phone number "
             "{{ contact.number }}. Then create a new note in Markor named '{{ note.name }}' with the contact's "
             "phone number as its content. Finally turn the dark theme on in Settings.",
             "新建一个联系人,名字是“{{ contact.first }}”,姓氏是“{{ contact.last }}”,电话号码是{{ contact.number }}。"
             "然后在 Markor 中新建一个名为“{{ note.name }}”的笔记,内容写这个联系人的电话号码。最后在设置中打开深色主题。",
             (("note.text", "contact.number"),)),
    CrossApp("PlaylistSmsNote", "multi-apps", "Clock, Chrome, Instagram (chosen, sent as an invitation, noted)",
             (P("music", "RetroQueue", 2), P("sms", "SmsReply", 1), P("note", "MarkorNote", 2)),
             "Add the song '{{ music.song1 }}' to the playing queue in Retro Music. Then add the song "
             "'{{ music.song2 }}' to a new playlist named '{{ music.playlist }}'. Then reply to {{ sms.name1 }} in "
             "Simple SMS Messenger with the playlist's name. Finally create a new note in Markor named "
             "'{{ note.name }}' with the title of the song you put in the playlist as its content.",
             bindings=(("sms.message1", "music.playlist"), ("note.text", "music.song2"))),
    CrossApp("RecipeExpenseSms", "multi-apps", "淘宝, 京东, 腾讯文档 (搜索商品,再把价格记录到文档)",
             (P("recipe", "RecipeAdd", 2), P("expense", "ExpenseEntry", 2), P("sms", "SmsReply", 1)),
             "Add a new recipe titled '{{ recipe.title }}' in Broccoli. Its description is "
             "'{{ recipe.description }}' and it makes {{ recipe.servings }}. Then delete the expense "
             "'{{ expense.old }}' from Pro Expense and add an expense named after the recipe, of "
             "{{ expense.amount | money }}. Finally reply to {{ sms.name1 }} in Simple SMS Messenger with the "
             "recipe's title.",
             "在 Broccoli 中添加一个名为“{{ recipe.title }}”的菜谱,简介是“{{ recipe.description }}”,份量为"
             "“{{ recipe.servings }}”。然后在 Pro Expense 中删除“{{ expense.old }}”这笔支出,再添加一笔以这个菜谱"
             "命名的支出,金额为{{ expense.amount | money }}。最后在 Simple SMS Messenger 中回复{{ sms.name1 }},"
             "内容就是这个菜谱的名字。",
             (("expense.name", "recipe.title"), ("sms.message1", "recipe.title"))),
    CrossApp("FilesRecordingNote", "multi-apps", "Triller, Setting, Google Play Store (three apps in turn)",
             (P("files", "FilesTidy", 1), P("recorder", "AudioRecording", 2), P("note", "MarkorNote", 2)),
             "In Files, delete '{{ files.file1 }}' from the internal storage. Then record an audio clip of about "
             "{{ recorder.seconds }} seconds with Audio Recorder and name it '{{ recorder.name }}'. Finally create a "
             "new note in Markor named '{{ note.name }}' with the recording's name as its content.",
             bindings=(("note.text", "recorder.name"),)),
)

_LADDERS = {ladder.name: ladder for ladder in LADDERS}


def subtask(ladder: str, level: int, zh: bool) -> type[SpaTask]:
    """The subtask class of ladder `ladder`'s level (unregistered; Chinese entities with `zh`)."""
    return ladder_task(_LADDERS[ladder], level, zh, __name__, base=SpaSubtask, prefix="SpaSubtask",
                       register=False)


def app_tag(ladder: str) -> str:
    """The app tag of a ladder's tasks."""
    kind = _LADDERS[ladder].kind
    return kind.tag or kind.app_names[0].replace(" ", "_")


def golden(ladder: str, level: int) -> int:
    """A ladder level's golden steps (its GUI reference's length)."""
    return _LADDERS[ladder].levels[level - 1].golden


def _task(spec: CrossApp, zh: bool) -> type[CompositeTask]:
    apps = tuple(dict.fromkeys(app_tag(part.ladder) for part in spec.parts))
    tags = ("spa", CROSS_APP_TAG, *apps, f"level:{spec.level}", f"category:{spec.type}") + ((LANGUAGE_TAG,) if zh else ())
    steps = sum(golden(part.ladder, part.level) for part in spec.parts)
    task = compose(f"SpaCross{spec.name}L{spec.level}{'Zh' if zh else ''}",
                   [(part.label, subtask(part.ladder, part.level, zh)) for part in spec.parts],
                   template=spec.goal_zh if zh else spec.goal, bindings=dict(spec.bindings),
                   complexity=steps / 5, tags=tags, module=__name__, ordered=True,  # max_steps = 2 × golden
                   difficulty=DIFFICULTY[spec.level + 1], optimal_steps=steps)
    task.__doc__ = (f"SPA-Bench cross-app task {spec.name} ({spec.type}, level {spec.level}"
                    f"{', Chinese' if zh else ''}); follows SPA's {spec.follows}.")
    return task


_BUILT = [(spec, _task(spec, zh)) for spec in CROSS_APPS for zh in (False, True) if not zh or spec.goal_zh]
TASKS: tuple[type[CompositeTask], ...] = tuple(task for _, task in _BUILT)
SPECS: dict[str, CrossApp] = {task.name: spec for spec, task in _BUILT}  # each task's spec, by name
globals().update({task.name: task for task in TASKS})  # importable by name, as hand-written classes are
