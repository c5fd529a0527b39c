"""Clipboard tasks (AndroidWorld's SystemCopyToClipboard)."""
from __future__ import annotations

from typing import Any

from taskkit.apps import clipper
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, long_press, open_app, tap, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval

# Set before the episode so that an empty clipboard and one left from earlier both fail.
RESET_TEXT = "~~~RESET~~~"


def _snippet(rng: TaskRng) -> str:
    """A short text people copy: an address, an email, an order or tracking number, a code."""
    fake = rng.faker
    kind = rng.choice(("address", "email", "order", "tracking", "discount", "company"))
    if kind == "address":
        return f"{fake.building_number()} {fake.street_name()}, {fake.city()}, {fake.state_abbr()}"
    if kind == "email":
        return fake.email()
    if kind == "order":
        return f"Order No: {rng.choice('ABCDEFGHJK')}{rng.randint(100000, 999999)}"
    if kind == "tracking":
        return f"Tracking #: 1Z{rng.randint(10**9, 10**10 - 1)}"
    if kind == "discount":
        return f"Discount code: {rng.choice(('SAVE', 'WELCOME', 'SPRING', 'VIP'))}{rng.randint(5, 50)}"
    return f"{fake.company()}, Suite {rng.randint(100, 990)}"


class SystemCopyToClipboard(TaskEval):
    """Put an exact text on the clipboard (read back through Clipper, as AndroidWorld reads it)."""

    app_names = ("clipper",)
    complexity = 1  # AndroidWorld's
    template = "Copy the following text to the clipboard: {{ clipboard_content }}"
    schema = {
        "type": "object",
        "properties": {"clipboard_content": {"type": "string", "minLength": 1}},
        "required": ["clipboard_content"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"clipboard_content": _snippet(rng)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        clipper.set_clipboard(env.device, RESET_TEXT)

    def is_successful(self, env: TaskEnv) -> float:
        """The clipboard holds the text exactly (surrounding whitespace aside); AndroidWorld's 90 %
        fuzzy match would also pass a text with a wrong digit in an order number."""
        super().is_successful(env)
        return 1.0 if clipper.clipboard(env.device).strip() == self.params["clipboard_content"].strip() else 0.0

    def solve(self, env: TaskEnv) -> None:
        clipper.set_clipboard(env.device, self.params["clipboard_content"])

    def gui_reference(self) -> list[Step]:
        """Type the text in a field (a new contact's first name, left unsaved), select it, Copy."""
        text = self.params["clipboard_content"]
        return [open_app("contacts"), tap("Create new contact"), type_text("First name", text), long_press(text),
                tap("Select all"), tap("Copy")]
