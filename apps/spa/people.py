"""Ladder kinds on people: Contacts (a contact filled in level by level) and Simple SMS Messenger
(replies, then a new conversation)."""
from __future__ import annotations

from typing import Any

from taskkit.apps import contacts, sms
from taskkit.apps.common import normalize_phone, random_phone_number
from taskkit.apps.spa import zh
from taskkit.apps.spa.kind import NOISE_SEED, PHONE, TEXT, Kind
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, back, enter, open_app, tap, type_text
from taskkit.rng import TaskRng
from taskkit.validators import ProviderUri, Validator, rows_added

_DATA = ProviderUri(contacts.DATA_URI, projection=("mimetype", "data1", "data2", "data3"))
_SENT = ProviderUri(sms.BOX_URIS["sent"], projection=("address", "body"))
_LABELS = ("Work", "Home", "Main", "Other")  # the editor's spinner, past its default Mobile
_NAME = {"type": "string", "pattern": r"^\S+$"}  # one word: the editor's first and last name fields


def _number(rng: TaskRng, chinese: bool) -> str:
    """A fictional mobile number: a US one in E.164 form, or a Chinese 11-digit one (13x, 15x, 18x)."""
    return f"1{rng.choice((38, 39, 58, 86))}{rng.randrange(10**8):08d}" if chinese else random_phone_number(rng)


def _noise_contacts(env: TaskEnv, seed: int, avoid: set[str]) -> None:
    rng = TaskRng(seed)
    for _ in range(rng.randint(1, 3)):
        other = contacts.random_contact(rng)
        if not avoid & set(other["name"].split()):
            contacts.add_contact(env.device, other["name"], other["number"])


def _name_row(first: str, last: str | None = None) -> dict[str, Any]:
    return {"mimetype": contacts.NAME_MIMETYPE, "data2": first} | ({"data3": last} if last else {})


def _phone_row(number: str, label: str | None = None) -> dict[str, Any]:
    return {"mimetype": contacts.PHONE_MIMETYPE, "data1": number} | (
        {"data2": str(dict(contacts.PHONE_LABELS)[label])} if label else {})


def _save_contact(env: TaskEnv, rows: list[dict[str, Any]]) -> None:
    """Save one contact as the editor does: a local raw contact, then its data rows (a phone
    without a label is Mobile)."""
    device = env.device
    device.content.insert(contacts.RAW_CONTACTS_URI, {"account_type": None, "account_name": None})
    raw_id = int(device.content.query(contacts.RAW_CONTACTS_URI, projection=["_id"], sort="_id DESC")[0]["_id"])
    for row in rows:
        if row["mimetype"] == contacts.PHONE_MIMETYPE:
            row = {"data2": str(contacts.PHONE_TYPE_MOBILE)} | row
        device.content.insert(contacts.DATA_URI, {"raw_contact_id": raw_id, **row})


def _contact_steps(first: str, last: str | None = None, number: str | None = None, label: str | None = None) -> list[Step]:
    """From the contact list: the add button, the fields given, Save (the contact's details open)."""
    steps = [tap("floating_action_button"), type_text("First name", first)]
    steps += [type_text("Last name", last)] if last else []
    steps += [type_text("Phone", number)] if number else []
    steps += [tap("spinner"), tap(label)] if label else []
    return steps + [tap("editor_menu_save_button")]


class ContactsKind(Kind):
    """L1 a contact with a first name; L2 with a last name and a phone number; L3 the phone's label."""

    app_names = ("contacts",)
    adds = (("first", "noise_seed"), ("last", "number"), ("label",))
    properties = {"first": _NAME, "noise_seed": NOISE_SEED, "last": _NAME, "number": PHONE,
                  "label": {"enum": list(_LABELS)}}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        names = zh.faker(rng) if chinese else rng.faker
        first, last = names.first_name(), names.last_name()
        return {"first": first, "noise_seed": rng.getrandbits(32), "last": last, "number": _number(rng, chinese),
                "label": rng.choice(_LABELS)}

    def setup(self, env: TaskEnv) -> None:
        contacts.reset(env.device)
        _noise_contacts(env, self.p["noise_seed"], {self.p["first"], self.p.get("last", "")})

    def _rows(self) -> list[dict[str, Any]]:
        if not self.at(2):
            return [_name_row(self.p["first"])]
        return [_name_row(self.p["first"], self.p["last"]), _phone_row(self.p["number"], self.p.get("label"))]

    def check(self) -> Validator:
        return rows_added(_DATA, self._rows(), normalize={"data1": normalize_phone})

    def solve(self, env: TaskEnv) -> None:
        _save_contact(env, self._rows())
        contacts.APP.launch(env.device)  # the list shows the names

    def steps(self) -> list[Step]:
        return [open_app("contacts"), *_contact_steps(self.p["first"], self.p.get("last"), self.p.get("number"),
                                                      self.p.get("label"))]


class ContactsBatchKind(Kind):
    """L1 a contact with a first name; L2 a second one with a phone number; L3 a third one."""

    app_names = ("contacts",)
    adds = (("first1", "noise_seed"), ("first2", "number2"), ("first3",))
    properties = {"first1": _NAME, "noise_seed": NOISE_SEED, "first2": _NAME, "number2": PHONE, "first3": _NAME}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        names = zh.faker(rng) if chinese else rng.faker
        first1, first2, first3 = (names.unique.first_name() for _ in range(3))
        return {"first1": first1, "noise_seed": rng.getrandbits(32), "first2": first2,
                "number2": _number(rng, chinese), "first3": first3}

    def _contacts(self) -> list[list[dict[str, Any]]]:
        people = [[_name_row(self.p["first1"])]]
        people += [[_name_row(self.p["first2"]), _phone_row(self.p["number2"])]] if self.at(2) else []
        return people + ([[_name_row(self.p["first3"])]] if self.at(3) else [])

    def setup(self, env: TaskEnv) -> None:
        contacts.reset(env.device)
        _noise_contacts(env, self.p["noise_seed"], {self.p[k] for k in ("first1", "first2", "first3") if k in self.p})

    def check(self) -> Validator:
        return rows_added(_DATA, [row for person in self._contacts() for row in person],
                          normalize={"data1": normalize_phone})

    def solve(self, env: TaskEnv) -> None:
        for rows in self._contacts():
            _save_contact(env, rows)
        contacts.APP.launch(env.device)

    def steps(self) -> list[Step]:
        steps = [open_app("contacts"), *_contact_steps(self.p["first1"])]
        if self.at(2):
            steps += [back(), *_contact_steps(self.p["first2"], number=self.p["number2"])]
        return steps + ([back(), *_contact_steps(self.p["first3"])] if self.at(3) else [])


def _message(rng: TaskRng, chinese: bool) -> str:
    if chinese:
        return rng.choice(zh.MESSAGES).format(name=zh.faker(rng).first_name())
    return sms.random_message(rng)


class SmsKind(Kind):
    """L1 a reply to one contact; L2 a reply to a second one; L3 a text to a new number."""

    app_names = ("simple sms messenger", "contacts")
    tag = "sms"
    adds = (("name1", "number1", "message1", "noise_seed"), ("name2", "number2", "message2"),
            ("number3", "message3"))
    properties = {"name1": TEXT, "number1": PHONE, "message1": TEXT, "noise_seed": NOISE_SEED,
                  "name2": TEXT, "number2": PHONE, "message2": TEXT, "number3": PHONE, "message3": TEXT}

    @classmethod
    def draw(cls, rng: TaskRng, chinese: bool) -> dict[str, Any]:
        names = zh.faker(rng) if chinese else rng.faker
        first, second = names.unique.name(), names.unique.name()
        drawn = {"name1": first, "name2": second, "noise_seed": rng.getrandbits(32)}
        numbers: list[str] = []
        while len(numbers) < 3:
            number = _number(rng, chinese)
            numbers += [number] if number not in numbers else []
        for index, number in enumerate(numbers, 1):
            drawn[f"number{index}"] = number
            drawn[f"message{index}"] = _message(rng, chinese)
        return drawn

    def _people(self) -> list[tuple[str, str]]:
        return [(self.p[f"name{i}"], self.p[f"number{i}"]) for i in (1, 2) if f"name{i}" in self.p]

    def _sends(self) -> list[tuple[str, str]]:
        return [(self.p[f"number{i}"], self.p[f"message{i}"]) for i in (1, 2, 3) if f"message{i}" in self.p]

    def setup(self, env: TaskEnv) -> None:
        contacts.reset(env.device)
        sms.reset(env.device)
        rng = TaskRng(self.p["noise_seed"])
        for _ in range(rng.randint(0, 2)):
            sms.receive(env.device, f"+1312555{rng.randrange(10**4):04d}", sms.random_message(rng))
        for name, number in self._people():
            contacts.add_contact(env.device, name, number)
            sms.receive(env.device, number, _message(rng, self.chinese))

    def check(self) -> Validator:
        return rows_added(_SENT, [{"address": number, "body": body} for number, body in self._sends()],
                          normalize={"address": normalize_phone})

    def solve(self, env: TaskEnv) -> None:
        for number, body in self._sends():
            sms.send(env.device, number, body)
        sms.APP.launch(env.device)  # the conversations, each with its last message

    def steps(self) -> list[Step]:
        steps: list[Step] = [open_app("simple sms messenger")]
        for index, (name, _) in enumerate(self._people()):
            steps += [back()] if index else []
            steps += [tap(name), type_text("thread_type_message", self.p[f"message{index + 1}"]),
                      tap("thread_send_message")]
        if self.at(3):
            steps += [back(), tap("conversations_fab"), type_text("new_conversation_address", self.p["number3"]),
                      enter(), type_text("thread_type_message", self.p["message3"]), tap("thread_send_message")]
        return steps
