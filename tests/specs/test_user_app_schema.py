"""A user's app written in one file, schema included, gets spec type checks and simulator databases."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

APP_MODULE = '''
from taskkit import apps
from taskkit.apps.base import App
from taskkit.apps.table import Database

DB = "/data/data/org.example.pantry/databases/pantry.db"
DATABASE = Database(DB, "CREATE TABLE items (item_id INTEGER PRIMARY KEY AUTOINCREMENT, "
                        "name TEXT NOT NULL, qty INTEGER NOT NULL);")
ITEMS = DATABASE.table("items", "item_id")
APP = apps.register(App(name="pantry", package="org.example.pantry", activity=".Main",
                        data_paths=("/data/data/org.example.pantry/databases",),
                        databases=(DATABASE,), tables=(ITEMS,)))
'''

SPEC = '''name: "PantryAdd"
apps: "pantry"
complexity: 1
goal: "Add {{ item.0.name }}."
params {
  name: "item"
  rows {
    table: "items"
    count: 1
    fields { name: "name" choice { strings: ["Rice"] } }
    fields { name: "qty" choice { strings: ["two"] } }
  }
}
success { rows_added { table: "items" params: "item" } }
oracle { insert_rows { table: "items" params: "item" } }
'''


def _write(tmp_path: Path) -> tuple[Path, Path]:
    module = tmp_path / "pantry_app.py"
    module.write_text(APP_MODULE)
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "pantry_add.textproto").write_text(SPEC)
    return module, specs


def test_a_user_apps_spec_is_type_checked_against_its_own_ddl(tmp_path: Path) -> None:
    module, specs = _write(tmp_path)
    done = subprocess.run([sys.executable, "-m", "taskkit.run", "--task_module", str(module), "--spec_dir",
                           str(specs), "--list_tasks"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "pantry_add.textproto:11:" in line and "INTEGER" in line and "Traceback" not in done.stderr


def test_a_user_apps_database_is_on_the_simulated_device(tmp_path: Path) -> None:
    module, _ = _write(tmp_path)
    script = textwrap.dedent(f'''
        import importlib.util, sys
        spec = importlib.util.spec_from_file_location("pantry_app", {str(module)!r})
        importlib.util.module_from_spec(spec); spec.loader.exec_module(importlib.util.module_from_spec(spec))
        from taskkit.connect import sim_device
        device = sim_device({str(tmp_path / "device")!r})
        print(device.state.host_path("/data/data/org.example.pantry/databases/pantry.db"))
    ''')
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(done.stdout.strip()) as con:
        assert [row[1] for row in con.execute("PRAGMA table_info(items)")] == ["item_id", "name", "qty"]
