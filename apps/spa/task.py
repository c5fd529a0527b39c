"""The SPA ladder task class and its builder: one class per ladder, level and language, from the data
in ladders.py (Spa<ladder>L<level>, and Spa<ladder>L<level>Zh for the Chinese variant); tasks.py
registers them, cross_app.py builds its subtasks with them.

Each task is judged by the device state first (the kind's check: rows, files, settings — it
stands in for SPA's MLLM check) and by SPA's key components (`key_components`: a screen's text,
the episode's screens tried from the last back, as SPA's Appendix D.1 does). Its step budget is twice its golden steps (complexity =
golden / 5); its golden steps are its GUI reference's length. A Chinese variant sets the device's
locale to zh-CN at the end of its set-up and puts the previous one back at teardown.
"""
from __future__ import annotations

import types
from typing import Any, ClassVar

from taskkit.apps.base import App
from taskkit.apps.bmoca_detect import reveal
from taskkit.apps.spa.kind import Kind
from taskkit.apps.spa.ladders import Ladder
from taskkit.apps.spa.zh import LOCALE as ZH_LOCALE
from taskkit.config import apply as device_config
from taskkit.device.catalog import ADB_KEYBOARD_IME
from taskkit.device.quoting import shell_quote
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, shown_in_locale
from taskkit.rng import TaskRng
from taskkit.task import TaskEval, jinja_environment
from taskkit.validators import Validator, all_of, key_components

DIFFICULTY = {1: "easy", 2: "medium", 3: "hard"}
LANGUAGE_TAG = "lang:zh-CN"


KEY_LENGTH = 20  # the characters of a long value a key component keeps: Pro Expense's rows show 20 (expense.NAME_LENGTH)


class SpaTask(TaskEval, register=False):
    """One level of one ladder, in English or Chinese."""

    abstract = True
    ladder: ClassVar[Ladder]
    level: ClassVar[int]
    zh: ClassVar[bool] = False
    _locale_before = ""  # the locale a Chinese variant found at set-up (put back at teardown)
    _screen_locale: str | None = None  # the device's locale during the episode (set-up reads it)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        drawn = cls.ladder.kind.draw(rng, cls.zh)
        return {name: drawn[name] for name in cls.ladder.kind.names(cls.level)}

    @property
    def kind(self) -> Kind:
        return self.ladder.kind(self.params, self.level, self.zh)

    def apps(self) -> list[App]:
        """The apps, and the kind's paths outside their data as one more (restored with them)."""
        extra = self.kind.extra_paths()
        owner = super().apps()[0]
        return super().apps() + ([App(f"{self.name} files", owner.package, data_paths=extra, reset=lambda _: None)]
                                 if extra else [])

    def key_components(self) -> list[str]:
        """SPA's key components of this level, filled in with the params. A key is a short text,
        as SPA's annotators write them: a long value (a message, a note) stands by its first line's
        first KEY_LENGTH characters, which a list row or a bubble shows whatever follows. A key
        that is a label of the app's screens is the label as the device's locale shows it (the
        screen's words, as SPA's annotators wrote the words their device showed): "display" is
        "affichage" on a Settings screen in French (`gui_reference.shown_in_locale`)."""
        level = self.ladder.levels[self.level - 1]
        keys = level.keys_zh if self.zh and level.keys_zh else level.keys
        rendered = (jinja_environment().from_string(key).render(**self.params) for key in keys)
        package = super().apps()[0].package
        return [shown_in_locale((text.splitlines() or [""])[0][:KEY_LENGTH].strip() or text, self._screen_locale, package)
                for text in rendered]

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        self.kind.setup(env)
        if self.zh:  # ADBKeyboard selected where installed, as SPA's (MobileAgent's) set-up does
            ime = shell_quote(ADB_KEYBOARD_IME)
            env.device.check(f"if ime list -s | grep -qxF {ime}; then ime set {ime} >/dev/null; fi")
            self._locale_before = env.device.check("getprop persist.sys.locale").strip()
            if self._locale_before != ZH_LOCALE:
                env.device.check(" && ".join(device_config.locale_commands(ZH_LOCALE)))
        self._screen_locale = ZH_LOCALE if self.zh else env.device.check("getprop persist.sys.locale").strip() or None

    def validator(self) -> Validator:
        return all_of(self.kind.check(), key_components(self.key_components()))

    def solve(self, env: TaskEnv) -> None:
        """The kind's solve, then its screen scrolled until it shows the key components (a dense
        screen lists fewer rows: the new expense or the folder may be further down)."""
        self.kind.solve(env)
        reveal(env.device, self.key_components())

    def gui_reference(self) -> list[Step]:
        return list(self.kind.steps())

    def teardown(self, env: TaskEnv) -> None:
        self.kind.teardown(env)
        super().teardown(env)
        before = getattr(self, "_locale_before", "") or "en-US"
        if self.zh and before != ZH_LOCALE:
            env.device.check(" && ".join(device_config.locale_commands(before)))


def ladder_task(ladder: Ladder, level: int, zh: bool, module: str, base: type[SpaTask] = SpaTask,
                prefix: str = "Spa", register: bool = True) -> type[SpaTask]:
    """The class of one level of `ladder` in one language, on `base` (registered unless told not);
    a language the ladder has no goal in keeps the English one."""
    spec = ladder.levels[level - 1]
    app_tag = ladder.kind.tag or ladder.kind.app_names[0].replace(" ", "_")
    tags = ("spa", app_tag, f"level:{level}", f"category:{ladder.category}") + ((LANGUAGE_TAG,) if zh else ())
    name = f"{prefix}{ladder.name}L{level}{'Zh' if zh else ''}"
    attributes = {
        "__module__": module, "__doc__": f"SPA-Bench ladder {ladder.name}, level {level}"
                                           f"{' (Chinese)' if zh else ''}; follows SPA's {ladder.follows}.",
        "name": name, "abstract": False, "ladder": ladder, "level": level, "zh": zh,
        "app_names": ladder.kind.app_names, "tags": tags, "difficulty": DIFFICULTY[level],
        "optimal_steps": spec.golden, "complexity": spec.golden / 5,  # max_steps = 2 × golden
        "template": (spec.goal_zh if zh else "") or spec.goal, "schema": ladder.kind.schema(level),
    }
    return types.new_class(name, (base,), {"register": register}, lambda namespace: namespace.update(attributes))
