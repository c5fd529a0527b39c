"""Spec evaluation is bounded at load: deep nesting and huge arithmetic are spec errors, not a
RecursionError or a hang."""
from __future__ import annotations

from pathlib import Path

import pytest

from taskkit import specs

HEAD = 'apps: "settings"\ncomplexity: 1\n'
ORACLE = 'oracle { set_setting { namespace: "system" key: "x" value: "1" } }\n'
CHECK = 'setting_equals { namespace: "system" key: "x" values: "1" }'


def load_one(tmp_path: Path, name: str, body: str) -> list[str]:
    (tmp_path / f"{name}.textproto").write_text(f'name: "{name}"\n{HEAD}{body}')
    return [str(error) for error in specs.load_dir(tmp_path, register=False).errors]


def test_nesting_3000_deep_is_one_error_at_the_place(tmp_path: Path) -> None:
    nested = "not { " * 3000 + CHECK + " }" * 3000
    errors = load_one(tmp_path, "Deep", f'goal: "x"\nsuccess {{ {nested} }}\n{ORACLE}')
    assert len(errors) == 1 and "nested more than 64 levels deep" in errors[0]
    assert errors[0].startswith(f"{tmp_path / 'Deep.textproto'}:5:")  # the line of the success block


def test_nesting_within_the_limit_loads(tmp_path: Path) -> None:
    nested = "not { not { " * 10 + CHECK + " } }" * 10
    assert load_one(tmp_path, "Fine", f'goal: "x"\nsuccess {{ {nested} }}\n{ORACLE}') == []


@pytest.mark.parametrize("expr, message", [
    ("10 ** (10 ** 9)", "too large"),
    ("2 ** 100000", "too large"),
    ("'ab' * (10 ** 8)", "too long"),
    ("[1] * 1000000", "too long"),
])
def test_huge_expressions_are_refused(tmp_path: Path, expr: str, message: str) -> None:
    body = (f'goal: "{{{{ level }}}}"\nparams {{ name: "level" expr: "{expr}" }}\n'
            f'success {{ {CHECK} }}\n{ORACLE}')
    errors = load_one(tmp_path, "Huge", body)
    assert len(errors) == 1 and message in errors[0] and "params[0].expr" in errors[0]


def test_ordinary_arithmetic_still_works(tmp_path: Path) -> None:
    body = ('goal: "{{ level }}"\nparams { name: "level" expr: "2 ** 10 * 3" }\n'
            f'success {{ {CHECK} }}\n{ORACLE}')
    assert load_one(tmp_path, "Small", body) == []
