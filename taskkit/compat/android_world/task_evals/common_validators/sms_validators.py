"""`android_world.task_evals.common_validators.sms_validators`: reading the SMS provider's rows as
`content query` prints them, and the base of AndroidWorld's send-a-text tasks."""
from __future__ import annotations

import logging
import random
from typing import Any

from taskkit.compat.android_world.env import adb_utils, interface
from taskkit.compat.android_world.task_evals import task_eval
from taskkit.compat.android_world.task_evals.utils import user_data_generation
from taskkit.compat.android_world.utils import fuzzy_match_lib

_LOG = logging.getLogger(__name__)
SMS_PACKAGE = "com.simplemobiletools.smsmessenger"
_DB = "/data/data/com.android.providers.telephony/databases/mmssms.db"


def parse_message(row: str) -> dict[str, str]:
    """The fields of one `Row: N k=v, k=v, …` line. `body` may hold ", ": it runs up to the
    last ", " before the next `=`."""
    fields: dict[str, str] = {}
    row = row.strip()
    start = row.find("body=")
    if start != -1:
        body = row[start + 5:]
        next_equals = body.find("=")
        if next_equals != -1:
            body = body[:body.rfind(", ", 0, next_equals)]
        fields["body"] = body
        row = row[:start] + row[start + 5 + len(body):]
    for part in row.split(", "):
        for separator in ("=", ":"):
            if separator in part:
                key, value = part.split(separator, 1)
                fields[key.strip()] = value.strip()
                break
    return fields


def _messages(response: adb_utils.AdbResponse) -> list[str]:
    """The rows of a `content query` answer ("No result found." is none)."""
    text = response.generic.output.decode().replace("\r", "")
    if text.startswith("No result found."):
        return []
    parts = text.split("\nRow:")
    return [part if index == 0 else "Row:" + part for index, part in enumerate(parts)]


def was_sent(messages: list[str], phone_number: str, body: str, current_time_ms: int, time_mins: int = 5) -> bool:
    """A row to `phone_number` (dashes and spaces ignored) whose body matches loosely, dated
    within the last `time_mins` minutes."""
    for message in messages:
        fields = parse_message(message)
        try:
            number, text, date = fields["address"].replace("-", "").replace(" ", ""), fields["body"], int(fields["date"])
        except KeyError as missing:
            raise ValueError(f"no address, body or date in the message row {message!r}") from missing
        if number == phone_number and fuzzy_match_lib.fuzzy_match(text, body):
            if current_time_ms - date <= time_mins * 60 * 1000:
                return True
            _LOG.info("the message was sent more than %d minutes ago", time_mins)
    return False


def sms_are_equal(message1: str, message2: str) -> bool:
    """Same address (dashes and spaces ignored) and loosely the same body."""
    first, second = parse_message(message1), parse_message(message2)
    same_number = (first["address"].replace("-", "").replace(" ", "")
                   == second["address"].replace("-", "").replace(" ", ""))
    return same_number and fuzzy_match_lib.fuzzy_match(first["body"], second["body"])


def clear_sms_and_threads(env: Any) -> None:
    """No messages and no conversations."""
    adb_utils.execute_sql_command(_DB, "DELETE FROM sms;", env)
    adb_utils.execute_sql_command(_DB, "DELETE FROM threads;", env)


class SimpleSMSSendSms(task_eval.TaskEval):
    """Send `message` to `number`; scored on the sent box, with the SMS app in front."""

    app_names = ("simple sms messenger",)
    complexity = 1.2
    schema = {"type": "object", "properties": {"number": {"type": "string"}, "message": {"type": "string"}},
              "required": ["number", "message"]}
    template = ""
    messages = user_data_generation.RANDOM_SENTENCES

    def get_sent_messages(self, env: Any) -> list[str]:
        return _messages(adb_utils.issue_generic_request("shell content query --uri content://sms/sent".split(), env))

    def _get_received_messages(self, env: Any) -> list[str]:
        return _messages(adb_utils.issue_generic_request("shell content query --uri content://sms/inbox".split(), env))

    def get_android_time(self, env: Any) -> int:
        """The device clock in milliseconds (`date +%s`)."""
        return int(adb_utils.issue_generic_request(["shell", "date", "+%s"], env).generic.output.strip()) * 1000

    def initialize_task(self, env: interface.AsyncEnv) -> None:
        super().initialize_task(env)
        adb_utils.toggle_airplane_mode("off", env.controller)
        clear_sms_and_threads(env.controller)
        if was_sent(self.get_sent_messages(env.controller), self.params["number"], self.params["message"],
                    self.get_android_time(env.controller)):
            raise ValueError("the message is already in the sent box: the check could not tell a new one")

    def is_successful(self, env: interface.AsyncEnv) -> float:
        super().is_successful(env)
        sent = was_sent(self.get_sent_messages(env.controller), self.params["number"], self.params["message"],
                        self.get_android_time(env.controller))
        front = adb_utils.get_current_activity(env.controller)[0] or ""
        if _stuck_at_sending(env):
            raise ValueError("the message could not be sent (the app shows Sending…)")
        return 1.0 if sent and adb_utils.extract_package_name(front) == SMS_PACKAGE else 0.0

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        return {"number": user_data_generation.generate_random_number(), "message": random.choice(cls.messages)}


def _stuck_at_sending(env: Any) -> bool:
    return any((element.text or "").startswith("Sending") for element in env.get_state().ui_elements)
