"""`compose()` with no `module=`: the class belongs to the module that called it, so a fresh
process (the `deterministic` property) can import it again."""
from __future__ import annotations

from taskkit.apps.composite.tasks import MarkorCreateNoteAndSms
from taskkit.apps.settings.tasks import SystemWifiTurnOn
from taskkit import registry
from taskkit.composite import compose
from taskkit.testing import check_deterministic

ComposedWifiTwice = compose("ComposedWifiTwice", [("a", SystemWifiTurnOn), ("b", SystemWifiTurnOn, 2.0)],
                    template="Turn Wi-Fi on, twice over.", register=False)


def test_a_composite_belongs_to_the_module_that_composed_it() -> None:
    assert ComposedWifiTwice.__module__ == __name__ and ComposedWifiTwice.source == __name__
    assert ComposedWifiTwice.name not in registry.names()  # register=False
    assert MarkorCreateNoteAndSms.__module__ == "taskkit.apps.composite.tasks"


def test_a_composite_without_module_is_rebuilt_in_a_fresh_process() -> None:
    result = check_deterministic(ComposedWifiTwice, seeds=[3])
    assert result.status == "pass", result
