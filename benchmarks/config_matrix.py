"""The device-config matrix: every task of the seed families and AndroidWorld, played by the oracle
and the GUI reference under B-MoCA's device configurations, at seed 0 (issue #36's "every family
holds under every device configuration").

    python benchmarks/config_matrix.py [--configs train,test] [--families bmoca,spa,androidlens,android_world]
                                       [--agents oracle,gui_reference] [--parallel N] [--json] [--keep DIR]

`--configs` takes splits (`train`: B-MoCA's 35 training environments, `test`: its 10 test ones)
and single configs (`bmoca-105`), so the matrix can be run in shards. Each family × agent is one
`python -m taskkit.run --suite_family F --agent A --seed 0` over the chosen configs (a config set
written for the run); the table gives episodes, successes and errors per family × split × agent,
errors counted apart (an errored episode is no success), and lists the failed episodes. Exit 0
when every episode succeeded, 1 otherwise, 2 on bad flags.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterable

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from taskkit import config  # noqa: E402
from taskkit.report import table  # noqa: E402

FAMILIES = ("bmoca", "spa", "androidlens", "android_world")
AGENTS = ("oracle", "gui_reference")


@dataclasses.dataclass
class Cell:
    """One family × split × agent: its episode counts and failures."""

    episodes: int = 0
    successes: int = 0
    errors: int = 0
    failed: list[str] = dataclasses.field(default_factory=list)


def choose_configs(spec: str) -> dict[str, str]:
    """config name -> its split, for `--configs` (splits and names, comma-separated)."""
    found = config.builtin_set()
    split_of = {name: split for split, names in found.splits.items() for name in names}
    chosen: dict[str, str] = {}
    for word in (w.strip() for w in spec.split(",") if w.strip()):
        if word in found.splits:
            chosen.update((name, word) for name in found.splits[word])
        elif word in found.configs:
            chosen[word] = split_of.get(word, "other")
        else:
            raise ValueError(f"--configs: unknown config or split {word!r}: use train, test or a name "
                             "such as bmoca-105")
    if not chosen:
        raise ValueError("--configs: name at least one config or split (train, test, bmoca-105)")
    return chosen


def _choose(spec: str, known: Iterable[str], flag: str) -> list[str]:
    words = [w.strip() for w in spec.split(",") if w.strip()]
    unknown = [w for w in words if w not in known]
    if unknown or not words:
        raise ValueError(f"{flag}: unknown {', '.join(unknown) or 'empty value'}: use some of {', '.join(known)}")
    return words


def write_set(names: Iterable[str], path: Path) -> None:
    """A config set file holding the chosen built-in configs (the `--device_config FILE.json` form)."""
    found = config.builtin_set()
    path.write_text(json.dumps({"configs": [found.configs[n].as_json() for n in names]}), encoding="utf-8")


def run_family(family: str, agent: str, config_file: Path, out: Path, parallel: int) -> list[dict[str, Any]]:
    """One `taskkit.run` over the family under every config of `config_file`; its result rows."""
    command = [sys.executable, "-m", "taskkit.run", "--suite_family", family, "--agent", agent, "--seed", "0",
               "--device_config", str(config_file), "--output_dir", str(out), "--parallel", str(parallel)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    results = out / "results.jsonl"
    if done.returncode >= 2 or not results.exists():
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"{family} × {agent}: taskkit.run exited {done.returncode}: {last}")
    return [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines() if line.strip()]


def tally(rows: Iterable[dict[str, Any]], split_of: dict[str, str]) -> dict[str, Cell]:
    """The rows' counts per split."""
    cells: dict[str, Cell] = {}
    for row in rows:
        name = (row.get("device_config") or {}).get("name", "default")
        cell = cells.setdefault(split_of.get(name, "other"), Cell())
        cell.episodes += 1
        if row.get("error"):
            cell.errors += 1
            cell.failed.append(f"{row['task']}@{name}: error {str(row['error']).splitlines()[0][:160]}")
        elif (row.get("score") or 0.0) >= 1.0:
            cell.successes += 1
        else:
            cell.failed.append(f"{row['task']}@{name}: score {row.get('score')}")
    return cells


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", default="train,test",
                        help="splits (train: B-MoCA's 35 training configs, test: its 10) and config names "
                             "(bmoca-105), comma-separated (default: train,test)")
    parser.add_argument("--families", default=",".join(FAMILIES),
                        help=f"some of {', '.join(FAMILIES)}, comma-separated (default: all four)")
    parser.add_argument("--agents", default=",".join(AGENTS),
                        help=f"some of {', '.join(AGENTS)}, comma-separated (default: both)")
    parser.add_argument("--parallel", type=int, default=1,
                        help="worker processes per taskkit.run (default 1; each holds its own simulated device)")
    parser.add_argument("--keep", help="write each run's output under this directory (default: a temporary one)")
    parser.add_argument("--json", action="store_true", help="print the cells (and their failed episodes) as JSON")
    args = parser.parse_args(argv)
    try:
        split_of = choose_configs(args.configs)
        families = _choose(args.families, FAMILIES, "--families")
        agents = _choose(args.agents, AGENTS, "--agents")
        if args.parallel < 1:
            raise ValueError("--parallel: give 1 or more worker processes")
    except ValueError as error:
        print(f"config_matrix: {error}", file=sys.stderr)
        return 2
    matrix: dict[tuple[str, str, str], Cell] = {}
    with tempfile.TemporaryDirectory(prefix="config_matrix-") as scratch:
        base = Path(args.keep) if args.keep else Path(scratch)
        base.mkdir(parents=True, exist_ok=True)
        config_file = base / "configs.json"
        write_set(split_of, config_file)
        for family in families:
            for agent in agents:
                rows = run_family(family, agent, config_file, base / f"{family}-{agent}", args.parallel)
                for split, cell in tally(rows, split_of).items():
                    matrix[(family, split, agent)] = cell
    if args.json:
        print(json.dumps([{"family": f, "split": s, "agent": a, **dataclasses.asdict(c)}
                          for (f, s, a), c in sorted(matrix.items())], indent=1))
    else:
        rows = [[f, s, a, str(c.episodes), str(c.successes), str(c.errors)] for (f, s, a), c in sorted(matrix.items())]
        print(table(["family", "split", "agent", "episodes", "successes", "errors"], rows))
        for (f, s, a), cell in sorted(matrix.items()):
            for line in cell.failed[:20]:
                print(f"  {f} {s} {a}: {line}")
    return 0 if all(c.successes == c.episodes for c in matrix.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
