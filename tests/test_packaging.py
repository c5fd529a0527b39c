"""The card's top-level folders install under taskkit's namespace, so nothing collides with a
package of the same name (PyPI's `validators`, anyone's `apps`)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_a_top_level_validators_package_and_taskkits_coexist(tmp_path: Path) -> None:
    other = tmp_path / "site" / "validators"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("def email(value):\n    return '@' in value\n")
    code = ("import validators, taskkit.validators as tv, taskkit.apps as ta\n"
            "assert validators.email('a@b.co') and not hasattr(validators, 'rows_added')\n"
            "assert tv.rows_added and ta.get('pro expense').package == 'com.arduia.expense'\n"
            "import importlib.util\n"
            "assert importlib.util.find_spec('apps') is None, 'apps/ is installed as a top-level package'\n"
            "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr



def test_every_source_folder_is_a_regular_package() -> None:
    """setup.py lists packages with find_packages, which skips folders without __init__.py:
    such a folder's modules would be missing from a wheel (taskkit/device once was)."""
    root = Path(__file__).resolve().parents[1]
    folders = {path.parent for top in ("taskkit", "apps", "validators", "task_protos")
               for path in (root / top).rglob("*.py") if "__pycache__" not in path.parts}
    missing = sorted(str(folder.relative_to(root)) for folder in folders if not (folder / "__init__.py").exists())
    assert missing == []


def test_every_data_file_the_package_reads_ships_with_it() -> None:
    """Every file in the source folders that is not Python is matched by setup.py's package_data
    (a wheel leaves out the others: the B-MoCA table and the real layouts once were)."""
    import ast

    root = Path(__file__).resolve().parents[1]
    call = next(node for node in ast.walk(ast.parse((root / "setup.py").read_text()))
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setup")
    package_data = ast.literal_eval(next(k.value for k in call.keywords if k.arg == "package_data"))
    folders = {"taskkit": root / "taskkit", **{f"taskkit.{top}": root / top for top in ("apps", "validators", "task_protos")}}
    shipped: set[Path] = set()
    for package, patterns in package_data.items():
        top = next(name for name in sorted(folders, key=len, reverse=True) if package.startswith(name))
        base = folders[top].joinpath(*package[len(top):].split(".")[1:])
        shipped |= {path for pattern in patterns for path in base.glob(pattern)}
    data = [path for folder in folders.values() for path in folder.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".py", ".pyc")]
    assert data and sorted(str(p.relative_to(root)) for p in data if p not in shipped) == []


def test_the_licence_and_notice_ship_and_name_every_modelled_source() -> None:
    """LICENSE and NOTICE are in the distribution's metadata, and NOTICE names every public
    repository whose ids and labels the simulated screens carry (a new app's SOURCE must be added)."""
    import importlib
    import importlib.metadata
    import pkgutil

    from taskkit.sim.gui import apps as gui_apps, source

    root = Path(__file__).resolve().parents[1]
    notice = (root / "NOTICE").read_text(encoding="utf-8")
    assert importlib.metadata.metadata("taskkit")["License"] == "Apache-2.0"
    assert "Apache License" in (root / "LICENSE").read_text(encoding="utf-8")
    found: set[str] = set()
    modules = [importlib.import_module(f"{gui_apps.__name__}.{info.name}") for info in pkgutil.iter_modules(gui_apps.__path__)]
    for value in [v for module in modules + [source] for v in vars(module).values()]:
        if isinstance(value, source.Source):
            found |= {value.repo, *(library.repo for library in value.libraries)}
    assert len(found) >= 12
    assert sorted(repo for repo in found if repo not in notice) == []
