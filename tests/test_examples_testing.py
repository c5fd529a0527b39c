"""The worked Recipe Box example proves its tasks correct with taskkit.testing, as the README says."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_test_file_passes_with_the_plugin():
    # Autoload off: the plugin is named once with -p, whether or not taskkit's entry point is installed.
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "taskkit.testing.plugin",
         "examples/test_recipe_tasks.py"],
        capture_output=True, text=True, cwd=ROOT, env=env,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "2 passed" in proc.stdout


def test_setup_registers_the_pytest_plugin(tmp_path):
    proc = subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    [entry_points] = tmp_path.glob("*.egg-info/entry_points.txt")
    assert "[pytest11]\ntaskkit = taskkit.testing.plugin" in entry_points.read_text()
