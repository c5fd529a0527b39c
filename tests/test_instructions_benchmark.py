"""benchmarks/instructions.py: each checkout's episodes run under callgrind with the counters zeroed
after the warm-up and dumped after the episodes, and the counts are read from the dumps; a missing
valgrind or a checkout without the policy is one line and exit 2. valgrind itself is stood in for
by two scripts (a real run takes minutes): they run the command as valgrind would and write the
dump that `callgrind_control -d` asks for, naming what was counted."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "instructions.py"

# valgrind: run the program (the arguments after valgrind's own), telling callgrind_control where
# the dump goes
_VALGRIND = """#!{python}
import os, sys
args = sys.argv[1:]
out = next(a for a in args if a.startswith("--callgrind-out-file=")).split("=", 1)[1]
first = next(i for i, a in enumerate(args) if not a.startswith("--"))
os.environ["FAKE_CALLGRIND_OUT"] = out
os.execv(args[first], args[first:])
"""
# callgrind_control -z PID / -d PID: a dump is written only after a zero, and counts the zero's order
_CONTROL = """#!{python}
import os, sys
flag, pid = sys.argv[1], sys.argv[2]
out = os.environ["FAKE_CALLGRIND_OUT"].replace("%p", pid)
if flag == "-z":
    open(out + ".zeroed", "w").close()
elif flag == "-d" and os.path.exists(out + ".zeroed"):
    with open(out + ".1", "w") as dump:
        dump.write("events: Ir\\nsummary: 4200000\\n")
"""


def _tools(folder: Path) -> dict[str, str]:
    for name, text in (("valgrind", _VALGRIND), ("callgrind_control", _CONTROL)):
        path = folder / name
        path.write_text(text.format(python=sys.executable))
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def test_both_checkouts_are_counted_between_the_zero_and_the_dump(tmp_path: Path) -> None:
    env = _tools(tmp_path)
    root = str(BENCHMARK.parents[1])
    done = subprocess.run([sys.executable, str(BENCHMARK), "--episodes", "2", "--against", root, "--json"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["episodes"] == 2 and report["ratio"] == 1.0
    assert [run["instructions"] for run in report["runs"]] == [4200000, 4200000]
    assert all(run["per_episode"] == 2100000 and run["steps"] >= 2 for run in report["runs"])


def test_a_missing_valgrind_is_one_line_and_exit_2(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # nothing on it
    done = subprocess.run([sys.executable, str(BENCHMARK)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "instructions.py: valgrind, callgrind_control not found; install valgrind (Debian: apt-get install valgrind)"]


def test_a_checkout_without_the_policy_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    env = _tools(tmp_path / "bin")
    done = subprocess.run([sys.executable, str(BENCHMARK), "--against", str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"instructions.py: {tmp_path} has no benchmarks/random_policy.py; give a checkout of taskkit that has it"]
