"""AndroidLens' Chinese tasks (its supplement, Sec. D: 399 of its 571 tasks are Chinese), on the
apps taskkit models, under the zh-CN locale with Chinese entities typed through ADBKeyboard.

Each goal of a task is one level of an SPA ladder (apps/spa: its Chinese entities drawn from
Faker's zh_CN through the task's seed, its device-state check, its reference solution and GUI
reference), so a goal is one milestone read from the device. A task is
`taskkit.composite.compose` of its goals: `ordered` where a later goal needs what an earlier one
made (AndroidLens' related goals: an ordered milestone group, a later goal counted only after the
earlier), else one unordered group. Its tags: the family, the apps, `category:` and
`subcategory:` of AndroidLens' Table 8, `interaction:` (Sec. C) on cross-app tasks, and
`lang:zh-CN`. Golden steps are the goals' GUI references' lengths added up; the budget is twice
that, as for the English tasks (docs/families.md, "AndroidLens").
"""
from __future__ import annotations

import dataclasses

from taskkit.apps.spa.cross_app import app_tag, golden, subtask
from taskkit.apps.spa.task import LANGUAGE_TAG
from taskkit.composite import CompositeTask, compose

#: AndroidLens' subcategories (Table 8) by category.
SUBCATEGORIES = {
    "multi-goal": ("single-app-related", "single-app-unrelated", "cross-app-related", "cross-app-unrelated"),
    "multi-constraint": ("operation-level", "page-level"),
    "domain-specific": ("batch", "vlm", "multi-step-single-goal"),
}


@dataclasses.dataclass(frozen=True)
class LensZh:
    """One Chinese task: its category, subcategory, cross-app interaction ("" on one app), its goals
    as (label, SPA ladder, level) in the goal's order, whether they are ordered, the Chinese goal
    (Jinja over `label.param`) and the bindings that carry one goal's value into a later one."""

    name: str
    category: str
    subcategory: str
    interaction: str
    goals: tuple[tuple[str, str, int], ...]
    goal: str
    ordered: bool = False
    bindings: tuple[tuple[str, str], ...] = ()


_ALARM = "{{ clock.hour }}:{{ '%02d' % clock.minutes }}"
_NOTE = "在 Markor 中新建一个名为“{{ note.name }}”的笔记,内容写“{{ note.text }}”"
_CONTACT = "新建联系人“{{ contact.first }}”,姓氏“{{ contact.last }}”,电话号码{{ contact.number }}"
_RECIPE = ("在 Broccoli 中添加菜谱“{{ recipe.title }}”,简介是“{{ recipe.description }}”,份量为“{{ recipe.servings }}”")

TASKS_ZH: tuple[LensZh, ...] = (
    # --- multi-goal ------------------------------------------------------------------------------
    LensZh("NoteThenFolderCopy", "multi-goal", "single-app-related", "",
           (("note", "MarkorNote", 2), ("folder", "MarkorFolder", 2)),
           _NOTE + "。然后新建文件夹“{{ folder.folder }}”,在里面再新建一个和这条笔记同名的笔记。",
           ordered=True, bindings=(("folder.name", "note.name"),)),
    LensZh("NoteThenReply", "multi-goal", "cross-app-related", "sharing",
           (("note", "MarkorNote", 2), ("sms", "SmsReply", 1)),
           _NOTE + "。然后在 Simple SMS Messenger 中回复{{ sms.name1 }},把这条笔记的内容发给对方。",
           ordered=True, bindings=(("sms.message1", "note.text"),)),
    LensZh("RecipeToNote", "multi-goal", "cross-app-related", "aggregation",
           (("recipe", "RecipeAdd", 2), ("note", "MarkorNote", 2)),
           _RECIPE + "。然后在 Markor 中新建一个名为“{{ note.name }}”的笔记,把这道菜的名字写进去。",
           ordered=True, bindings=(("note.text", "recipe.title"),)),
    LensZh("ContactNumberToNote", "multi-goal", "cross-app-related", "aggregation",
           (("contact", "ContactsCreate", 2), ("note", "MarkorNote", 2)),
           _CONTACT + "。然后在 Markor 中新建一个名为“{{ note.name }}”的笔记,记下这个联系人的电话号码。",
           ordered=True, bindings=(("note.text", "contact.number"),)),
    LensZh("NoteToRecipe", "multi-goal", "cross-app-related", "clipboard",
           (("note", "MarkorNote", 2), ("recipe", "RecipeAdd", 2)),
           _NOTE + "。然后在 Broccoli 中添加菜谱“{{ recipe.title }}”,份量为“{{ recipe.servings }}”,简介用这条笔记的内容。",
           ordered=True, bindings=(("recipe.description", "note.text"),)),
    LensZh("RecipeIngredientsToFriend", "multi-goal", "cross-app-related", "sharing",
           (("recipe", "RecipeAdd", 3), ("sms", "SmsReply", 1)),
           _RECIPE + ",配料是“{{ recipe.ingredients }}”,做法是“{{ recipe.directions }}”。然后在 Simple SMS "
           "Messenger 中回复{{ sms.name1 }},把这道菜的配料发给对方。",
           ordered=True, bindings=(("sms.message1", "recipe.ingredients"),)),
    LensZh("QuietThenReply", "multi-goal", "cross-app-related", "tool-call",
           (("settings", "SettingsConnections", 2), ("sms", "SmsReply", 1)),
           "在设置中关闭WLAN和蓝牙,然后在 Simple SMS Messenger 中回复{{ sms.name1 }},内容为“{{ sms.message1 }}”。",
           ordered=True),
    LensZh("ContactAndAlarm", "multi-goal", "cross-app-unrelated", "multi-round",
           (("contact", "ContactsCreate", 2), ("clock", "ClockAlarmOn", 1)),
           _CONTACT + ";另外在时钟里开启上午" + _ALARM + "的闹钟。"),
    LensZh("RepliesAndDarkTheme", "multi-goal", "cross-app-unrelated", "tool-call",
           (("sms", "SmsReply", 2), ("settings", "SettingsDisplaySound", 2)),
           "在 Simple SMS Messenger 中回复{{ sms.name1 }},内容为“{{ sms.message1 }}”,再回复{{ sms.name2 }},"
           "内容为“{{ sms.message2 }}”;另外在设置中打开深色主题,并关闭来电时振动。"),
    LensZh("RecipeAndRecording", "multi-goal", "cross-app-unrelated", "multi-round",
           (("recipe", "RecipeAdd", 2), ("recorder", "AudioRecording", 2)),
           _RECIPE + ";另外用 Audio Recorder 录一段大约{{ recorder.seconds }}秒的音频,命名为“{{ recorder.name }}”。"),
    LensZh("FolderAndPlaylist", "multi-goal", "cross-app-unrelated", "multi-round",
           (("folder", "MarkorFolder", 2), ("music", "RetroQueue", 2)),
           "在 Markor 中新建文件夹“{{ folder.folder }}”,并在里面新建笔记“{{ folder.name }}”;另外在 Retro Music 中"
           "把歌曲“{{ music.song1 }}”加入播放队列,再把“{{ music.song2 }}”加入新建的歌单“{{ music.playlist }}”。"),
    # --- multi-constraint ------------------------------------------------------------------------
    LensZh("LabelledContactAndAlarm", "multi-constraint", "operation-level", "multi-round",
           (("contact", "ContactsCreate", 3), ("clock", "ClockAlarmOn", 2)),
           _CONTACT + ",并把这个号码的标签设为“{{ contact.label }}”;另外在时钟里开启上午" + _ALARM
           + "的闹钟,并设为工作日重复。"),
    LensZh("WeekendAlarmAndReply", "multi-constraint", "operation-level", "multi-round",
           (("clock", "ClockAlarmReplace", 3), ("sms", "SmsReply", 1)),
           "在时钟里删除上午" + _ALARM + "的闹钟,开启上午9:00的闹钟,再新建一个上午{{ clock.hour2 }}:"
           "{{ '%02d' % clock.minutes2 }}的闹钟,只在周末重复;然后在 Simple SMS Messenger 中回复{{ sms.name1 }},"
           "内容为“{{ sms.message1 }}”。"),
    LensZh("FullRecipeAndNote", "multi-constraint", "operation-level", "aggregation",
           (("recipe", "RecipeAdd", 3), ("note", "MarkorNote", 1)),
           _RECIPE + ",配料是“{{ recipe.ingredients }}”,做法是“{{ recipe.directions }}”;然后在 Markor 中新建一个名为"
           "“{{ note.name }}”的笔记。", ordered=True),
    LensZh("SettingsPagesAndNote", "multi-constraint", "page-level", "tool-call",
           (("settings", "SettingsDisplaySound", 3), ("note", "MarkorNote", 2)),
           "在设置的“显示”页面打开深色主题,在“声音和振动”页面关闭来电时振动,在“网络和互联网”页面开启飞行模式;"
           "然后" + _NOTE + "。"),
    LensZh("FilesPagesAndContact", "multi-constraint", "page-level", "multi-round",
           (("files", "FilesTidy", 3), ("contact", "ContactsCreate", 2)),
           "在“文件”应用的内部存储中删除“{{ files.file1 }}”,把“{{ files.file2 }}”移到“{{ files.folder }}”文件夹,"
           "再进入“{{ files.folder2 }}”文件夹删除“{{ files.file3 }}”;然后" + _CONTACT + "。"),
    # --- domain-specific -------------------------------------------------------------------------
    LensZh("ThreeContactsAndAlarm", "domain-specific", "batch", "multi-round",
           (("contacts", "ContactsBatch", 3), ("clock", "ClockAlarmOn", 1)),
           "依次新建三个联系人:“{{ contacts.first1 }}”;“{{ contacts.first2 }}”,电话号码{{ contacts.number2 }};"
           "“{{ contacts.first3 }}”。然后在时钟里开启上午" + _ALARM + "的闹钟。"),
    LensZh("TwoNotesAndRecipe", "domain-specific", "batch", "aggregation",
           (("notes", "MarkorNote", 3), ("recipe", "RecipeAdd", 1)),
           "在 Markor 中新建两个笔记:“{{ notes.name }}”,内容写“{{ notes.text }}”;“{{ notes.name2 }}”,内容写"
           "“{{ notes.text2 }}”。然后在 Broccoli 中添加菜谱“{{ recipe.title }}”。"),
    LensZh("ThreeMessagesAndFolder", "domain-specific", "batch", "sharing",
           (("sms", "SmsReply", 3), ("folder", "MarkorFolder", 1)),
           "在 Simple SMS Messenger 中回复{{ sms.name1 }}“{{ sms.message1 }}”,回复{{ sms.name2 }}"
           "“{{ sms.message2 }}”,再给新号码{{ sms.number3 }}发送“{{ sms.message3 }}”;然后在 Markor 中新建文件夹"
           "“{{ folder.folder }}”。"),
    LensZh("TwoContactsToNote", "domain-specific", "batch", "aggregation",
           (("contacts", "ContactsBatch", 2), ("note", "MarkorNote", 2)),
           "依次新建两个联系人:“{{ contacts.first1 }}”;“{{ contacts.first2 }}”,电话号码{{ contacts.number2 }}。"
           "然后在 Markor 中新建一个名为“{{ note.name }}”的笔记,记下第二个联系人的电话号码。",
           ordered=True, bindings=(("note.text", "contacts.number2"),)),
)


# A closing goal on an app the task does not use yet, for a task of fewer than three goals:
# AndroidLens' tasks carry three to eight milestones (its Fig. 8), one per goal here.
_CLOSING = (("clock", "ClockAlarmOn", 1, "最后在时钟里开启上午" + _ALARM + "的闹钟。"),
            ("settings", "SettingsDisplaySound", 1, "最后在设置中打开深色主题。"),
            ("recorder", "AudioRecording", 1, "最后用 Audio Recorder 录一段大约{{ recorder.seconds }}秒的音频。"))
MIN_GOALS = 3


def _closed(spec: LensZh) -> LensZh:
    """`spec` with closing goals added until it has MIN_GOALS."""
    while len(spec.goals) < MIN_GOALS:
        used = {app_tag(ladder) for _, ladder, _ in spec.goals}
        label, ladder, level, sentence = next(c for c in _CLOSING if app_tag(c[1]) not in used)
        spec = dataclasses.replace(spec, goals=(*spec.goals, (label, ladder, level)), goal=spec.goal + sentence)
    return spec


def _task(spec: LensZh) -> type[CompositeTask]:
    apps = tuple(dict.fromkeys(app_tag(ladder) for _, ladder, _ in spec.goals))
    tags = ("androidlens", *apps, f"category:{spec.category}", f"subcategory:{spec.subcategory}",
            *((f"interaction:{spec.interaction}",) if spec.interaction else ()), LANGUAGE_TAG)
    steps = sum(golden(ladder, level) for _, ladder, level in spec.goals)
    task = compose(f"AndroidLens{spec.name}Zh", [(label, subtask(ladder, level, True)) for label, ladder, level in spec.goals],
                   template=spec.goal, bindings=dict(spec.bindings), complexity=steps / 5, tags=tags, module=__name__,
                   ordered=spec.ordered, difficulty="hard" if steps >= 15 else "medium", optimal_steps=steps)
    task.__doc__ = (f"AndroidLens Chinese task {spec.name}: {spec.category} ({spec.subcategory}"
                    f"{', ' + spec.interaction if spec.interaction else ''}).")
    return task


_CLOSED = tuple(_closed(spec) for spec in TASKS_ZH)
TASKS: tuple[type[CompositeTask], ...] = tuple(_task(spec) for spec in _CLOSED)
SPECS: dict[str, LensZh] = {task.name: spec for spec, task in zip(_CLOSED, TASKS)}  # as built, closing goals included
globals().update({task.name: task for task in TASKS})  # importable by name, as hand-written classes are
