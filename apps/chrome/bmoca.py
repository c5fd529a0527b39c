"""B-MoCA's Chrome tasks (its Appendix B.1 tables; v1's own instructions too): open Chrome, open a
new tab, open the history page. Each is judged by B-MoCA's detector alone, as none leaves state
the device keeps (a tab or a visited page): the ActivityTaskManager START line of Chrome's
launcher activity (com.google.android.apps.chrome.Main) or of HistoryActivity — B-MoCA's v2
table tags them ActivityManager, Android 13 logs them under ActivityTaskManager
(docs/sim-device.md) — or the tab switcher button described with two open tabs ("2 open tabs,
tap to switch tabs"; B-MoCA prints the pattern as `*2.*`, read here as the regex `.*2.*`).
"""
from __future__ import annotations

from taskkit.apps import chrome
from taskkit.apps.bmoca_detect import BmocaAppTask
from taskkit.env import TaskEnv
from taskkit.validators import ui_element_matches
from taskkit.validators.base import Validator

MENU = "Customize and control Google Chrome"


class _ChromeTask(BmocaAppTask, register=False):
    abstract = True
    app_names = ("chrome",)
    package = chrome.PACKAGE
    tags = ("bmoca", "chrome", "category:web-shopping")


class BmocaChromeOpen(_ChromeTask):
    template = "open Chrome"
    step_limit = 4
    LOGCAT = ("ActivityTaskManager:I", r"^(.*)START(.*)com.google.android.apps.chrome")


class BmocaChromeOpenApp(BmocaChromeOpen):
    """B-MoCA v1's wording."""

    template = "open the chrome app"
    step_limit = 4


class BmocaChromeNewTab(_ChromeTask):
    template = "open a new tab in Chrome"
    step_limit = 5
    TAPS = (MENU, "New tab")

    def prepare(self, env: TaskEnv) -> None:
        chrome.reset(env.device)  # one tab open

    def detector(self) -> Validator:
        return ui_element_matches({"resource_id": "com.android.chrome:id/tab_switcher_button", "content_desc": ".*2.*"})


class BmocaChromeHistory(_ChromeTask):
    template = "go to search history in Chrome"
    step_limit = 6
    TAPS = (MENU, "History")
    LOGCAT = ("ActivityTaskManager:I", r"^(.*)START(.*)chrome.browser.history.HistoryActivity")


class BmocaChromeHistoryV1(BmocaChromeHistory):
    """B-MoCA v1's wording and step limit."""

    template = "go to search history in chrome"
    step_limit = 5
