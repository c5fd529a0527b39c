"""AndroidWorld-style SQLite, file and SMS tasks run through taskkit.compat.android_world with only their
imports changed: row dataclasses in params (still JSON data), the SQLiteApp bases, the integrity
checks, file_validators parts, datetime_utils, and env.controller's pull/push of a database."""
from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from taskkit import loading, registry
from taskkit.connect import sim_device
from taskkit.env import Env
from taskkit.rng import instance_seed

ROOT = Path(__file__).resolve().parents[1]
# Written the way AndroidWorld writes its SQLite tasks; only the imports name taskkit.compat.
TASK_FILE = '''
import random
from typing import Any

from taskkit.compat.android_world.env import device_constants
from taskkit.compat.android_world.env import interface
from taskkit.compat.android_world.env.setup_device import apps
from taskkit.compat.android_world.task_evals import task_eval
from taskkit.compat.android_world.task_evals.common_validators import file_validators
from taskkit.compat.android_world.task_evals.common_validators import sqlite_validators
from taskkit.compat.android_world.task_evals.utils import sqlite_schema_utils
from taskkit.compat.android_world.task_evals.utils import user_data_generation
from taskkit.compat.android_world.utils import datetime_utils

_DB = "/data/data/com.arduia.expense/databases/accounting.db"
_NAMES = ["Groceries", "Rent", "Bus pass", "Cinema", "Gym", "Books", "Coffee", "Phone bill"]


def _random_expense() -> sqlite_schema_utils.Expense:
  created = datetime_utils.create_random_october_2023_unix_ts(1, 14) * 1000
  return sqlite_schema_utils.Expense(
      random.choice(_NAMES), random.randint(100, 50000), random.randint(1, 9), "", created, created)


class _ExpenseTask(sqlite_validators.SQLiteApp):
  app_name_with_db = "pro expense"
  app_names = ("pro expense",)
  db_key = "expense_id"
  db_path = _DB
  table_name = "expense"
  row_type = sqlite_schema_utils.Expense

  def initialize_task(self, env: interface.AsyncEnv) -> None:
    apps.ExpenseApp.setup(env)
    super().initialize_task(env)


class AwExpenseDeleteTwo(_ExpenseTask, sqlite_validators.DeleteMultipleRows):
  """Delete two named expenses among noise."""

  complexity = 2
  n_rows = 2
  n_rows_noise = 5
  schema = {}

  @property
  def goal(self) -> str:
    names = [row.name for row in self.params[sqlite_validators.ROW_OBJECTS]]
    return f"Delete the expenses {names[0]} and {names[1]} in pro expense."

  @classmethod
  def generate_random_params(cls) -> dict[str, Any]:
    rows = sqlite_schema_utils.get_random_items(7, _random_expense, filter_fn=lambda row: row.amount > 150)
    return {sqlite_validators.ROW_OBJECTS: rows[:2], sqlite_validators.NOISE_ROW_OBJECTS: rows[2:]}

  def validate_deletion_integrity(self, before, after) -> bool:
    ids = [row.expense_id for row in self.rows_to_delete]
    return sqlite_validators.validate_rows_removal_integrity(before, after, ids, self.db_key)


class AwExpenseAddTwo(_ExpenseTask, sqlite_validators.AddMultipleRows):
  """Log two expenses."""

  complexity = 2
  n_rows = 2
  schema = {}

  @property
  def goal(self) -> str:
    rows = self.params[sqlite_validators.ROW_OBJECTS]
    return "Add the expenses " + " and ".join(f"{row.name} ({row.amount_dollars})" for row in rows)

  @classmethod
  def _get_random_target_row(cls) -> sqlite_schema_utils.Expense:
    return _random_expense()

  def validate_addition_integrity(self, before, after, reference_rows) -> bool:
    return sqlite_validators.validate_rows_addition_integrity(
        before, after, reference_rows, compare_fields=["name", "amount"], free_form_fields=["name"])


class AwMarkorCreate(task_eval.TaskEval):
  """A part-task held by a task, as AndroidWorld's Markor tasks hold file_validators.CreateFile."""

  app_names = ("markor",)
  complexity = 1
  schema = file_validators.CreateFile.schema
  template = "Create a new note in Markor named {file_name} with the text: {text}"

  def __init__(self, params, **kwargs):
    super().__init__(params, **kwargs)
    self.create_file_task = file_validators.CreateFile(params, device_constants.MARKOR_DATA)

  @classmethod
  def generate_random_params(cls) -> dict[str, Any]:
    return {"file_name": user_data_generation.generate_random_file_name() + ".md",
            "text": user_data_generation.generate_random_string(12)}

  def initialize_task(self, env: interface.AsyncEnv) -> None:
    super().initialize_task(env)
    self.create_file_task.initialize_task(env)

  def is_successful(self, env: interface.AsyncEnv) -> float:
    return self.create_file_task.is_successful(env)

  def tear_down(self, env: interface.AsyncEnv) -> None:
    super().tear_down(env)
    self.create_file_task.tear_down(env)
'''


@pytest.fixture
def loaded(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "aw_sqlite_tasks.py"
    path.write_text(TASK_FILE)
    monkeypatch.setattr(registry, "_TASKS", dict(registry._TASKS))  # this test's tasks leave with it
    loading.load_module(str(path))
    return path


@pytest.fixture
def env(tmp_path: Path):
    device = sim_device(tmp_path / "device")
    try:
        yield Env(device)
    finally:
        device.close()


def test_row_params_are_dataclasses_and_plain_json_and_androidworlds_draws(loaded: Path) -> None:
    cls = registry.get("AwExpenseDeleteTwo")
    seed = instance_seed(30, "AwExpenseDeleteTwo", 0)
    task = cls.from_seed(seed)
    rows = task.params["row_objects"] + task.params["noise_row_objects"]
    assert len(rows) == 7 and all(row.amount > 150 for row in rows)
    assert rows[0].category_name in rows[0].category_id_to_name.values()
    random.seed(seed)  # AndroidWorld's suite: seed, then the no-argument call
    assert cls.generate_random_params() == {key: value for key, value in task.params.items() if key != "seed"}
    plain = json.loads(json.dumps(task.params))
    assert plain["row_objects"][0]["name"] == rows[0].name and plain["seed"] == seed
    shown = subprocess.run([sys.executable, "-m", "taskkit.run", "--task_module", str(loaded), "--show_instance",
                            "AwExpenseDeleteTwo"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["params"] == plain
    assert [name for name in ("SQLiteApp", "DeleteMultipleRows", "CreateFile", "_ExpenseTask")
            if name in registry.names()] == []


def test_delete_rows_task_scores_exactly_the_two_deletions(loaded: Path, env: Env) -> None:
    task = registry.get("AwExpenseDeleteTwo").from_seed(11)
    task.initialize_state(env)
    db = "/data/data/com.arduia.expense/databases/accounting.db"
    ids = sorted(int(row["expense_id"]) for row in env.device.sqlite.query(db, "SELECT expense_id FROM expense"))
    assert len(ids) == 7 and task.is_successful(env) == 0.0
    targets = [row.expense_id for row in task.rows_to_delete]
    assert targets == ids[-2:]  # inserted after the noise rows
    env.device.sqlite.execute(db, f"DELETE FROM expense WHERE expense_id = {targets[0]}")
    assert task.is_successful(env) == 0.0
    env.device.sqlite.execute(db, f"DELETE FROM expense WHERE expense_id = {ids[0]}")  # a noise row too
    env.device.sqlite.execute(db, f"DELETE FROM expense WHERE expense_id = {targets[1]}")
    assert task.is_successful(env) == 0.0
    task.teardown(env)
    again = registry.get("AwExpenseDeleteTwo").from_seed(11)
    again.initialize_state(env)
    for target in again.rows_to_delete:
        env.device.sqlite.execute(db, f"DELETE FROM expense WHERE expense_id = {target.expense_id}")
    assert again.is_successful(env) == 1.0
    again.teardown(env)


def test_add_rows_task_and_controller_pull_and_push_of_the_database(loaded: Path, env: Env, tmp_path: Path) -> None:
    from taskkit.compat.android_world.env import interface
    from taskkit.compat.android_world.task_evals.utils import sqlite_schema_utils, sqlite_utils

    task = registry.get("AwExpenseAddTwo").from_seed(5)
    task.initialize_state(env)
    assert task.is_successful(env) == 0.0
    controller = interface.AsyncEnv(env).controller
    db = "/data/data/com.arduia.expense/databases/accounting.db"
    with controller.pull_file(db) as local_dir:  # AndroidWorld's way: edit a host copy, push it back
        local = os.path.join(local_dir, "accounting.db")
        connection = sqlite3.connect(local)
        for row in task.params["row_objects"]:
            command, values = sqlite_schema_utils.insert_into_db(row, "expense", "expense_id")
            connection.execute(command, values)
        connection.commit()
        connection.close()
        assert len(sqlite_utils.execute_query("SELECT * FROM expense", local, sqlite_schema_utils.Expense)) == 2
        controller.push_file(local, db)
    assert not os.path.exists(local_dir)  # the temporary copy is gone
    assert task.is_successful(env) == 1.0
    one_more = sqlite_schema_utils.Expense("Extra", 999)
    sqlite_utils.insert_rows_to_remote_db([one_more], "expense_id", "expense", db, "pro expense", interface.AsyncEnv(env))
    assert task.is_successful(env) == 0.0  # an unrequested row is not an addition of exactly two
    task.teardown(env)
    assert env.device.sqlite.query(db, "SELECT COUNT(*) AS n FROM expense")[0]["n"] == 0


def test_a_file_validators_part_scores_the_note(loaded: Path, env: Env) -> None:
    task = registry.get("AwMarkorCreate").from_seed(3)
    task.initialize_state(env)
    assert task.is_successful(env) == 0.0
    path = f"/storage/emulated/0/Documents/Markor/{task.params['file_name']}"
    env.device.files.write_text(path, task.params["text"] + "\n")
    assert task.is_successful(env) == 1.0
    task.teardown(env)
    assert not env.device.files.exists(path)


def test_datetime_utils_draw_around_androidworlds_day() -> None:
    import datetime

    from taskkit.compat.android_world.env import device_constants
    from taskkit.compat.android_world.utils import datetime_utils

    random.seed(1)
    stamps = [datetime_utils.create_random_october_2023_unix_ts() for _ in range(200)]
    days = {datetime_utils.timestamp_to_localized_datetime(stamp).day for stamp in stamps}
    assert min(days) >= 15 and max(days) <= 31 and all(stamp % 3600 == 0 for stamp in stamps)
    moments = [datetime_utils.generate_random_datetime() for _ in range(200)]
    week = datetime.timedelta(days=7)
    assert all(device_constants.DT - week <= moment < device_constants.DT + week for moment in moments)


SMS_FILE = '''
from taskkit.compat.android_world.task_evals.common_validators import sms_validators


class AwSmsSend(sms_validators.SimpleSMSSendSms):
  """AndroidWorld's way: the base does setup and scoring, the task only words the goal."""

  @property
  def goal(self) -> str:
    return f"Send a text message to {self.params['number']} with message: {self.params['message']}"
'''


def test_an_sms_validators_task_is_solved_through_the_simulated_gui(tmp_path: Path, env: Env, monkeypatch) -> None:
    """The base reads `content query` rows as AndroidWorld parses them, the device clock through
    `date +%s` and the screen through env.get_state(); a message typed and sent in the app's GUI
    scores 1.0, a different one 0.0."""
    from taskkit.apps import sms
    from taskkit.compat.android_world.task_evals.common_validators import sms_validators
    from tests.sim.gui.helpers import tap

    path = tmp_path / "aw_sms_task.py"
    path.write_text(SMS_FILE)
    monkeypatch.setattr(registry, "_TASKS", dict(registry._TASKS))
    loading.load_module(str(path))
    for text, expected in (("Something else entirely", 0.0), (None, 1.0)):
        task = registry.get("AwSmsSend").from_seed(4)
        number, message = task.params["number"], task.params["message"]
        task.initialize_state(env)
        sms.receive(env.device, number, "Hi!")
        env.device.check("am start -n com.simplemobiletools.smsmessenger/.activities.MainActivity")
        tap(env.device, number)
        tap(env.device, "thread_type_message")
        env.device.check("input text " + shell_words(text or message))
        tap(env.device, "thread_send_message")
        assert task.is_successful(env) == expected
        task.teardown(env)
    row = "Row: 0 _id=3, address=+1 555-0100, date=1697384040000, body=Hi, see you at 5, read=1"
    assert sms_validators.parse_message(row)["body"] == "Hi, see you at 5"
    assert sms_validators.was_sent([row], "+15550100", "hi, see you at 5", 1697384040000 + 60_000)
    assert not sms_validators.was_sent([row], "+15550100", "hi, see you at 5", 1697384040000 + 10 * 60_000)


def shell_words(text: str) -> str:
    """`input text` words: spaces as %s, the whole quoted for the shell."""
    from taskkit.device.quoting import shell_quote

    return shell_quote(text.replace(" ", "%s"))


def test_write_to_gallery_puts_a_real_image_of_the_text_in_dcim(env: Env, tmp_path: Path) -> None:
    """AndroidWorld's receipt and recipe image tasks start from such images; `copy_data_to_device`
    into a device folder copies into it, as `adb push` does."""
    import io

    from PIL import Image

    from taskkit.compat.android_world.env import interface
    from taskkit.compat.android_world.task_evals.utils import user_data_generation
    from taskkit.compat.android_world.utils import file_utils

    aw_env = interface.AsyncEnv(env)
    user_data_generation.write_to_gallery("Lunch $12.50\n\nTaxi $30.00", "receipt.jpg", aw_env)
    image = Image.open(io.BytesIO(env.device.files.read_bytes("/sdcard/DCIM/receipt.jpg")))
    assert image.format == "JPEG" and image.width > 100 and image.height > 40
    assert image.convert("L").getextrema()[0] < 100  # the text is drawn, not a blank page
    local = tmp_path / "note.txt"
    local.write_text("hello")
    file_utils.copy_data_to_device(str(local), "/sdcard/Download", aw_env.controller)
    assert env.device.files.read_text("/sdcard/Download/note.txt") == "hello"
