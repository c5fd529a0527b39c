"""`python -m taskkit.seed_coverage` also reports the other seed families against their papers:
SPA-Bench's single-app ladders plus at least 30 cross-app tasks (20 English, 10 Chinese), and
AndroidLens' at least 40 tasks, at least 20 of them Chinese."""
from __future__ import annotations

import re
import subprocess
import sys

from taskkit import seed_coverage


def test_the_families_meet_the_issue_s_counts() -> None:
    spa, lens = seed_coverage.family_count("spa"), seed_coverage.family_count("androidlens")
    assert spa.tasks - spa.cross_app >= 45 and spa.cross_app >= 30
    assert spa.cross_app - spa.cross_app_chinese >= 20 and spa.cross_app_chinese >= 10
    assert lens.tasks >= 40 and lens.chinese >= 20


def test_the_command_prints_the_families_lines() -> None:
    out = subprocess.run([sys.executable, "-m", "taskkit.seed_coverage"], capture_output=True, text=True, check=True).stdout
    spa = re.search(r"^SPA-Bench: (\d+) single-app ladder tasks \((\d+) in Chinese\) and (\d+) cross-app tasks "
                    r"\((\d+) English, (\d+) Chinese\)", out, re.M)
    lens = re.search(r"^AndroidLens: (\d+) tasks \((\d+) English, (\d+) Chinese\)", out, re.M)
    assert spa and lens, out[-500:]
    assert int(spa[3]) >= 30 and int(lens[1]) >= 40 and int(lens[3]) >= 20
