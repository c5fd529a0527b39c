"""The API reference (docs/api, Sphinx autodoc) builds without a warning and documents what a
Python task can call: every device service, every validator module, every app model."""
from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api"


def _documented_modules() -> set[str]:
    return set(re.findall(r"^\.\. automodule:: (\S+)", "".join(p.read_text() for p in API.glob("*.rst")), re.M))


def test_every_service_validator_and_app_model_has_a_page() -> None:
    from taskkit import apps, validators
    from taskkit.device import services

    documented = _documented_modules()
    wanted = {f"{services.__name__}.{m.name}" for m in pkgutil.iter_modules(services.__path__)}
    wanted |= {f"{validators.__name__}.{m.name}" for m in pkgutil.iter_modules(validators.__path__)}
    for info in pkgutil.iter_modules(apps.__path__):
        module = __import__(f"{apps.__name__}.{info.name}", fromlist=["_"])
        if getattr(module, "APP", None) is not None:  # an app model (task-only packages have none)
            wanted.add(module.__name__)
    assert sorted(wanted - documented) == []


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("api")
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(API), str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


@pytest.mark.parametrize("page, anchor", [
    ("device", "taskkit.device.services.settings.Settings.put"),
    ("device", "taskkit.device.services.content.Content.insert"),
    ("device", "taskkit.device.services.sqlite.Sqlite"),
    ("tasks", "taskkit.task.TaskEval.generate_random_params"),
    ("validators", "taskkit.validators.rows.rows_added"),
    ("apps", "taskkit.apps.expense.EXPENSES"),
    ("apps", "taskkit.apps.table.Table.fill"),
])
def test_the_reference_documents_the_calls_tasks_make(built: Path, page: str, anchor: str) -> None:
    assert f'id="{anchor}"' in (built / f"{page}.html").read_text(encoding="utf-8")
