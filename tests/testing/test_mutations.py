"""Near-miss mutations are derived from each validator class, applied after solve, and killed."""
from __future__ import annotations

import re

import pytest

from taskkit.connect import sim_device
from taskkit import loading, registry
from taskkit.env import Env
from taskkit.sim.device import SimDevice
from taskkit.testing import derive
from taskkit.testing.mutations import Mutation, answer_near_misses
from taskkit.testing.nearvalues import UNRELATED, near_miss, one_char_off
from taskkit.testing.session import Session
from tests.testing import broken_tasks as broken
from tests.testing import mutation_tasks as tasks

loading.load_builtin()


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    device = sim_device(tmp_path_factory.mktemp("mutations") / "device")
    with Session(Env(device)) as session:
        yield session
    device.close()


def mutated(session, task_cls, seed=1):
    """The near-miss run of `task_cls` at `seed`, which must have applied and killed every mutation."""
    run = session.near_misses(task_cls, seed)
    assert run.error is None, run.error
    assert not run.survived and not run.unapplied, (run.survived, run.unapplied)
    assert run.killed
    return run.killed


def shapes(names):
    """Mutation names with their varying parts (values in brackets, keys after =) blanked, as a set."""
    names = [re.sub(r"\(.*?\)", "(…)", name) for name in names]
    return {re.sub(r"(?<==)[^ :]+", "…", name) for name in names}


def test_rows_added_to_a_table(session):
    names = mutated(session, broken.AddCoffee)
    assert shapes(names) == {
        "table expense: the new row: wrong name (…)", "table expense: the new row: wrong amount (…)",
        "table expense: the new row: wrong category (…)", "table expense: the new row missing",
        "table expense: one extra new row", "table expense: a noise row deleted (…)",
        "table expense: a noise row edited (…)"}


def test_rows_added_to_a_provider_and_a_read_only_view(session):
    assert {"content://sms/sent: the new row: wrong address (…)", "content://sms/sent: the new row: wrong body (…)",
            "content://sms/sent: the new row missing", "content://sms/sent: one extra new row"} <= shapes(
        mutated(session, registry.get("SimpleSmsSend")))
    contacts = shapes(mutated(session, registry.get("ContactsAddContact"), seed=5))
    assert "content://contacts/phones/: the new row: wrong number (…)" in contacts  # written through the data rows
    assert "content://contacts/phones/: the new row: wrong display_name (…)" in contacts


def test_rows_deleted(session):
    names = mutated(session, registry.get("ExpenseDeleteSingle"))
    assert shapes(names) == {"table expense: deleted row expense_id=… kept", "table expense: a noise row deleted (…)",
                             "table expense: a noise row edited (…)", "table expense: an extra row (…)"}


def test_rows_updated(session):
    names = mutated(session, tasks.ExpenseRename)
    assert {"table expense: updated row expense_id=…: wrong name (…)",
            "table expense: updated row expense_id=…: another field changed (…)",
            "table expense: updated row expense_id=… deleted"} <= shapes(names)


def test_duplicates_removed(session):
    names = shapes(mutated(session, registry.get("ExpenseDeleteDuplicates")))
    assert {"table expense: duplicate group 1: every copy deleted", "table expense: duplicate group 1: the kept copy edited (…)",
            "table expense: duplicate group 1: one extra copy kept", "table expense: an extra row (…)"} <= names


def test_files_exist_absent_and_content(session):
    deleted = mutated(session, registry.get("MarkorDeleteNote"))  # all_of(file_absent, file_exists…)
    assert sum("still there" in name for name in deleted) == 1
    assert sum("wrong file name" in name for name in deleted) == 4
    created = mutated(session, registry.get("MarkorCreateNote"))
    assert [name.split(": ", 1)[1].split(" (")[0] for name in created] == ["wrong content", "wrong file name"]


def test_setting_equals(session):
    assert mutated(session, registry.get("SystemWifiTurnOn")) == [
        "setting global/wifi_on = '0'", "setting global/wifi_on = '3'"]


def test_provider_row_exists(session):
    assert shapes(mutated(session, tasks.SmsSentExists)) == {
        "content://sms/sent: the matching row has a wrong address (…)",
        "content://sms/sent: the matching row has a wrong body (…)", "content://sms/sent: the matching row missing"}


def test_answer_equals(session):
    assert shapes(mutated(session, tasks.CountExpenses)) == {"answer: wrong (…)", "answer: none given"}


def test_any_of_mutates_the_alternative_that_passes(session):
    assert mutated(session, tasks.WifiOrBluetooth) == ["setting global/wifi_on = '0'", "setting global/wifi_on = '3'"]


def test_not_is_mutated_by_reaching_the_forbidden_state(session):
    names = mutated(session, tasks.DeleteDraft)
    assert names[0] == "the draft still exists reached: file /storage/emulated/0/Documents/Markor/draft.md created"
    assert "wrong file name" in names[1]


def test_weighted_mutates_every_part(session):
    names = mutated(session, tasks.NoteAndBrightness)
    assert any("wrong content" in n for n in names) and "setting system/screen_brightness = '102'" in names


def test_composite_tasks_are_mutated_part_by_part(session):
    names = mutated(session, registry.get("MarkorCreateNoteAndSms"))
    assert {name.split(": ")[0] for name in names} == {"note", "sms"}


def test_a_normalizer_that_ignores_a_field_lets_the_mutation_survive(session):
    run = session.near_misses(tasks.AddCoffeeConstantNormalizer, 1)
    assert [name.split(" (")[0] for name in run.survived] == ["table expense: the new row: wrong amount"]


def test_a_validator_class_without_a_rule_is_noted_and_rules_can_be_registered(session):
    run = session.near_misses(tasks.AddTwoExpenses, 1)
    assert run.total == 0 and "no mutation rule for ExpenseCountAtLeast" in run.notes[0]

    @derive.register(tasks.ExpenseCountAtLeast)  # stays registered: only this test uses the class
    def _(validator, obs):
        return [Mutation("one expense deleted", lambda env: env.device.sqlite.execute(
            "/data/data/com.arduia.expense/databases/accounting.db",
            "DELETE FROM expense WHERE expense_id = (SELECT max(expense_id) FROM expense);"))]

    assert session.near_misses(tasks.AddTwoExpenses, 2).killed == ["one expense deleted"]


def test_near_values_are_the_nearest_that_the_check_rejects():
    assert one_char_off("quick_panda") == "quick_pandb" and one_char_off("+12125550129") == "+12125550120"
    assert one_char_off("") == "x"
    assert near_miss(1234, lambda v: v == 1234) == 1235
    assert near_miss(1234, lambda v: abs(v - 1234) <= 1) == 1334  # tolerant check: the first value outside it
    assert near_miss("Buy milk", lambda v: v.lower() == "buy milk") == "Buy mill"
    assert near_miss("Buy milk", lambda v: True) == UNRELATED  # a check that takes anything gets the farthest


def test_answer_near_misses():
    assert [m.name for m in answer_near_misses("Lunch, then gym, Book club")] == [
        "answer: none given", "answer: the last item missing ('Lunch, then gym')"]
    assert [m.name for m in answer_near_misses("October 22 2023")][1] == "answer: a digit off ('October 23 2023')"
