"""Simple SMS Messenger tasks: send and reply (AndroidWorld's SimpleSms* family)."""
from __future__ import annotations

from typing import Any

from taskkit.apps import clipper, contacts, sms
from taskkit.apps.common import normalize_phone, random_phone_number
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, back, enter, long_press, open_app, tap, type_text
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import ProviderUri, rows_added

SENT = ProviderUri(sms.BOX_URIS["sent"], projection=("address", "body", "type"))
_APP = ("simple sms messenger",)
_NUMBER = {"type": "string", "pattern": r"^\+?[0-9]{7,15}$"}
_NOISE_SEED = {"type": "integer", "minimum": 0}
_MINUTE_MS = 60_000


def sent_to(number: str, message: str):
    """Exactly one new sent message, to `number` (digits compared) with `message` (fuzzy)."""
    return rows_added(SENT, [{"address": number, "body": message}], fuzzy=("body",),
                      normalize={"address": normalize_phone})


def _conversations(env: TaskEnv, rng: TaskRng, count: int, avoid: str) -> None:
    """Seed `count` older exchanges with other numbers (received and sent)."""
    now = env.device.clock.now_ms()
    for i in range(count):
        number = random_phone_number(rng)
        if normalize_phone(number) == normalize_phone(avoid):
            continue
        sms.receive(env.device, number, sms.random_message(rng), date_ms=now - (i + 2) * 90 * _MINUTE_MS)
        if rng.random() < 0.5:
            sms.send(env.device, number, sms.random_message(rng), date_ms=now - (i + 2) * 90 * _MINUTE_MS + _MINUTE_MS)


def _new_conversation(to: str) -> list[Step]:
    """From the conversation list: start a conversation with a number (confirmed with ENTER)."""
    return [tap("conversations_fab"), type_text("new_conversation_address", to), enter()]


def _send(message: str) -> list[Step]:
    return [type_text("thread_type_message", message), tap("thread_send_message")]


def _paste_and_send() -> list[Step]:
    """Long-press the message box, paste the clipboard from the floating toolbar, send."""
    return [long_press("thread_type_message"), tap("Paste"), tap("thread_send_message")]


class SimpleSmsSend(TaskEval):
    """Send a text message to a number."""

    app_names = _APP
    complexity = 1.2
    tags = ("communication", "sms")
    template = "Send a text message using Simple SMS Messenger to {{ number }} with message: {{ message }}"
    schema = {
        "type": "object",
        "properties": {"number": _NUMBER, "message": {"type": "string", "minLength": 1}, "noise_seed": _NOISE_SEED},
        "required": ["number", "message", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {"number": random_phone_number(rng), "message": sms.random_message(rng), "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"])
        _conversations(env, rng, rng.randint(0, 4), self.params["number"])

    def validator(self):
        return sent_to(self.params["number"], self.params["message"])

    def solve(self, env: TaskEnv) -> None:
        sms.send(env.device, self.params["number"], self.params["message"])

    def gui_reference(self) -> list[Step]:
        return [open_app("simple sms messenger"), *_new_conversation(self.params["number"]), *_send(self.params["message"])]


class SimpleSmsReply(SimpleSmsSend):
    """Reply to the message just received from a number."""

    complexity = 1.2  # AndroidWorld's
    template = "Reply to {{ number }} with message: {{ message }} in Simple SMS Messenger"

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        rng = TaskRng(self.params["noise_seed"] + 1)
        sms.receive(env.device, self.params["number"], sms.random_message(rng))

    def gui_reference(self) -> list[Step]:
        return [open_app("simple sms messenger"), tap(self.params["number"]), *_send(self.params["message"])]


class SimpleSmsReplyMostRecent(SimpleSmsSend):
    """Reply to whoever sent the most recent message (the goal does not name the number)."""

    complexity = 1.2  # AndroidWorld's
    template = "Reply to the most recent text message using Simple SMS Messenger with message: {{ message }}"

    def initialize_state(self, env: TaskEnv) -> None:
        TaskEval.initialize_state(self, env)
        rng = TaskRng(self.params["noise_seed"])
        _conversations(env, rng, rng.randint(1, 4), self.params["number"])
        sms.receive(env.device, self.params["number"], sms.random_message(rng))

    def gui_reference(self) -> list[Step]:
        """The list is newest first: the top conversation (the reference knows whose it is)."""
        return [open_app("simple sms messenger"), tap(self.params["number"]), *_send(self.params["message"])]


# The addresses AndroidWorld's SimpleSmsSendReceivedAddress texts (its user-data generator's list).
ADDRESSES = (
    "123 Main St Girdwood, AK, 99587", "6 Elm St, Birmingham, AL, 35217", "789 E Oak St, Phoenix AZ 85006",
    "1011 S Maple St, Little Rock, AR, 72204", "1415 W Cedar Ave Denver, CO, 80223",
    "968 Spruce St, Hartford, CT, 06103", "1819 Birch Ct, Dover, DE, 19901", "2021 Poplar St, Atlanta, GA, 30340",
)
_NAME = {"type": "string", "minLength": 1}


class SimpleSmsResend(SimpleSmsSend):
    """Send again the message last sent to a contact, who asks for it (AndroidWorld's
    SimpleSmsResend): exactly one new sent message, to that contact, with that text."""

    app_names = ("simple sms messenger", "contacts")  # the contact is seeded: its provider is restored too
    complexity = 1.2
    template = "Resend the message I just sent to {{ name }} in Simple SMS Messenger"
    schema = {
        "type": "object",
        "properties": {"name": _NAME, "number": _NUMBER, "message": {"type": "string", "minLength": 1},
                       "noise_seed": _NOISE_SEED},
        "required": ["name", "number", "message", "noise_seed"],
    }
    ASK = "Sorry, there was a glitch, what was the last message you sent me?"

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        person = contacts.random_contact(rng)
        return {**person, "message": sms.random_message(rng), "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)  # other conversations first
        contacts.add_contact(env.device, self.params["name"], self.params["number"])
        now = env.device.clock.now_ms()
        sms.send(env.device, self.params["number"], self.params["message"], date_ms=now - 2 * _MINUTE_MS)
        sms.receive(env.device, self.params["number"], self.ASK, date_ms=now - _MINUTE_MS)

    def gui_reference(self) -> list[Step]:
        """Open the contact's conversation (where the message to resend shows), send it again."""
        return [open_app("simple sms messenger"), tap(self.params["name"]), *_send(self.params["message"])]


class SimpleSmsSendReceivedAddress(SimpleSmsSend):
    """Forward the address one contact just texted to another contact (AndroidWorld's
    SimpleSmsSendReceivedAddress)."""

    app_names = ("simple sms messenger", "contacts")
    complexity = 1.8
    template = "Text the address of the event to {{ name1 }} that {{ name2 }} just sent me in Simple SMS Messenger"
    schema = {
        "type": "object",
        "properties": {"name1": _NAME, "number": _NUMBER, "name2": _NAME, "number2": _NUMBER,
                       "message": {"enum": list(ADDRESSES)}, "noise_seed": _NOISE_SEED},
        "required": ["name1", "number", "name2", "number2", "message", "noise_seed"],
    }

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        first = contacts.random_contact(rng)
        second = contacts.random_contact(rng)
        while second["name"] == first["name"] or normalize_phone(second["number"]) == normalize_phone(first["number"]):
            second = contacts.random_contact(rng)
        return {"name1": first["name"], "number": first["number"], "name2": second["name"],
                "number2": second["number"], "message": rng.choice(ADDRESSES), "noise_seed": rng.getrandbits(32)}

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        contacts.add_contact(env.device, self.params["name1"], self.params["number"])
        contacts.add_contact(env.device, self.params["name2"], self.params["number2"])
        sms.receive(env.device, self.params["number2"], self.params["message"])

    def gui_reference(self) -> list[Step]:
        """Read the address in name2's conversation, then text it to name1 (picked from the contacts)."""
        return [open_app("simple sms messenger"), tap(self.params["name2"]), back(), tap("conversations_fab"),
                type_text("new_conversation_address", self.params["name1"]), tap(self.params["name1"]),
                *_send(self.params["message"])]


class SimpleSmsSendClipboardContent(SimpleSmsSend):
    """Send the clipboard's text (put there at setup) to a number."""

    app_names = _APP + ("clipper",)
    complexity = 1.2  # AndroidWorld's
    template = "Send a message to {{ number }} with the clipboard content in Simple SMS Messenger"

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        clipper.set_clipboard(env.device, self.params["message"])

    def gui_reference(self) -> list[Step]:
        return [open_app("simple sms messenger"), *_new_conversation(self.params["number"]), *_paste_and_send()]
