"""B-MoCA's Contacts tasks (its Appendix B.1 tables, and v1's "activate the edit page in
contact"): open the app, open the editor to insert a contact, open it to edit one. Each is judged
by B-MoCA's detector alone, as opening a page leaves no state:

* "open the contact app": ActivityManager's `^(.*)Start proc(.*)com.android.contacts`. B-MoCA's
  image has AOSP Contacts (process com.android.contacts); taskkit models Google Contacts, whose
  process is com.google.android.contacts — the regex still matches its line, through the hosting
  component's class: `Start proc PID:com.google.android.contacts/u0aN for pre-top-activity
  {com.google.android.contacts/com.android.contacts.activities.PeopleActivity}`.
* "activate the insert page" / "activate the edit page": ActivityTaskManager's START line of
  ContactEditorActivity with ACTION_INSERT (the list's "Create new contact") or ACTION_EDIT (a
  contact's "Edit contact"; taskkit/sim/gui/apps/contacts.py). B-MoCA's tables tag them
  ActivityManager (v2) and ActivityTaskManager (v1): Android 13 logs ActivityTaskManager.
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import contacts
from taskkit.apps.bmoca_detect import BmocaAppTask
from taskkit.env import TaskEnv
from taskkit.gui_reference import Target, contains
from taskkit.rng import TaskRng


class _ContactsTask(BmocaAppTask, register=False):
    abstract = True
    app_names = ("contacts",)
    package = contacts.PACKAGE
    tags = ("bmoca", "contacts", "category:communication")


class BmocaContactsOpen(_ContactsTask):
    template = "open the contact app"
    step_limit = 4
    LOGCAT = ("ActivityManager:I", r"^(.*)Start proc(.*)com.android.contacts")


class BmocaContactsInsertPage(_ContactsTask):
    template = "activate the insert page in contact"
    step_limit = 5
    TAPS = ("Create new contact",)
    LOGCAT = ("ActivityTaskManager:I", r"^(.*)START(.*)INSERT(.*)ContactEditorActivity")


class BmocaContactsEditPage(_ContactsTask):
    """B-MoCA v1's: a contact (drawn from the seed) is there to edit."""

    template = "activate the edit page in contact"
    step_limit = 5
    optimal_steps = 3  # open, the contact, Edit contact
    LOGCAT = ("ActivityTaskManager:I", r"^(.*?)START(.*?)EDIT(.*?)ContactEditorActivity")
    schema = {"type": "object", "properties": {"name": {"type": "string", "minLength": 3},
                                               "number": {"type": "string", "minLength": 3}},
              "required": ["name", "number"]}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return contacts.random_contact(rng)

    def prepare(self, env: TaskEnv) -> None:
        contacts.reset(env.device)
        contacts.add_contact(env.device, self.params["name"], self.params["number"])

    def taps(self) -> list[Target]:
        # the list shows the name on one line: find the row by the name's start
        return [contains(self.params["name"].splitlines()[0][:20]), "Edit contact"]
