"""Where two runs of the same episodes disagree: one on a device, one on the simulated device.

Input: two `taskkit.run --output_dir` folders (results.jsonl, trajectories/*.jsonl). Episodes are
paired by instance id, steps by step number. What is compared:

* per step: the foreground activity; the elements, keyed by (resource id, class, text,
  description) as a multiset: those only on the device are *missing* from the simulator, those
  only on the simulator are *extra*; for the elements both have, the flags an agent reads
  (clickable, checked, enabled, ...) and the bounds, in dp, beyond a tolerance; and, for an action
  that touches the screen, the element it lands on on each side.
* per episode: score, success, status, reasons (what the task's checks read), side effects, error,
  and the first step where the two diverged.
* per screen (the foreground and the taps that reached it on the device) and per app (the
  foreground's package): element recall (share of the device's elements the simulator has) and
  precision (share of the simulator's the device has), and the worst bounds error.
"""
from __future__ import annotations

import collections
import dataclasses
import json
from pathlib import Path
from typing import Any, Iterable, Iterator

from taskkit.agents.recorded import DIRECTORY
from taskkit.resume import RESULTS

FLAGS = ("is_clickable", "is_checkable", "is_checked", "is_enabled", "is_editable", "is_scrollable",
         "is_long_clickable", "is_selected", "is_password")
EPISODE_FIELDS = ("score", "success", "status", "reasons", "side_effects", "error_kind", "error", "answer")
TOUCHES = ("click", "double_tap", "long_press", "input_text")  # actions that land on an element
BASELINE_DPI = 160  # a dp is one pixel at 160 dpi (Android's `DisplayMetrics.DENSITY_DEFAULT`)
MAX_LISTED = 20  # ids and differences listed per step (the counts are always whole)

Key = tuple[str, str, str, str]


def element_key(element: dict[str, Any]) -> Key:
    """What identifies an element across the two devices: resource id, class, text, description."""
    return (element.get("resource_name") or "", element.get("class_name") or "",
            element.get("text") or "", element.get("content_description") or "")


def describe(key: Key) -> str:
    """A key as one short label: `id "text" [description] (Class)`."""
    rid, cls, text, desc = key
    parts = [rid.rsplit("/", 1)[-1] if rid else "", f'"{text}"' if text else "", f"[{desc}]" if desc else ""]
    return " ".join(p for p in parts if p) + f" ({cls.rsplit('.', 1)[-1] or '?'})"


@dataclasses.dataclass
class StepDiff:
    """What differs on one step; empty lists and None fields mean the two agree."""

    step: int
    screen: str
    foreground: tuple[str | None, str | None] | None = None  # (device, simulator) when they differ
    missing: list[str] = dataclasses.field(default_factory=list)  # on the device, not on the simulator
    extra: list[str] = dataclasses.field(default_factory=list)  # on the simulator, not on the device
    flags: list[str] = dataclasses.field(default_factory=list)
    bounds: list[str] = dataclasses.field(default_factory=list)
    lands_on: tuple[str, str] | None = None  # (device, simulator) elements an action touched, when they differ
    counts: dict[str, int] = dataclasses.field(default_factory=dict)  # device, simulator, matched
    worst_bounds_dp: float = 0.0

    @property
    def agrees(self) -> bool:
        return not (self.foreground or self.missing or self.extra or self.flags or self.bounds or self.lands_on)


@dataclasses.dataclass
class EpisodeDiff:
    """One episode on both sides: the fields that differ, and the steps that do."""

    instance_id: str
    task: str
    fields: dict[str, tuple[Any, Any]]  # field -> (device, simulator), only those that differ
    steps: int
    first_divergence: int | None
    diverged: list[StepDiff]
    step_diffs: list[StepDiff] = dataclasses.field(default_factory=list, repr=False)  # every step, agreeing too
    dumps: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None  # the first diverged step's elements
    recorded_as: tuple[str, str] = ("", "")  # each side's own instance id (with its device config's name)

    @property
    def state_agrees(self) -> bool:
        return not self.fields


@dataclasses.dataclass
class Share:
    """Element counts over some steps: recall and precision of the simulator against the device."""

    device: int = 0
    simulator: int = 0
    matched: int = 0
    worst_bounds_dp: float = 0.0
    missing: collections.Counter = dataclasses.field(default_factory=collections.Counter)

    def add(self, diff: StepDiff, missing: Iterable[str]) -> None:
        self.device += diff.counts.get("device", 0)
        self.simulator += diff.counts.get("simulator", 0)
        self.matched += diff.counts.get("matched", 0)
        self.worst_bounds_dp = max(self.worst_bounds_dp, diff.worst_bounds_dp)
        self.missing.update(missing)

    @property
    def recall(self) -> float:
        return 1.0 if not self.device else self.matched / self.device

    @property
    def precision(self) -> float:
        return 1.0 if not self.simulator else self.matched / self.simulator


@dataclasses.dataclass
class Calibration:
    """The whole comparison, ready for calibration.json and calibration.html."""

    episodes: list[EpisodeDiff]
    screens: dict[str, Share]
    apps: dict[str, Share]
    only_device: list[str]  # instance ids one side has and the other does not
    only_simulator: list[str]

    @property
    def step_agreement(self) -> float:
        steps = [d for e in self.episodes for d in e.step_diffs]
        return 1.0 if not steps else sum(d.agrees for d in steps) / len(steps)

    @property
    def score_agreement(self) -> float:
        if not self.episodes:
            return 1.0
        return sum("score" not in e.fields for e in self.episodes) / len(self.episodes)

    @property
    def state_agreement(self) -> float:
        return 1.0 if not self.episodes else sum(e.state_agrees for e in self.episodes) / len(self.episodes)

    @property
    def agrees(self) -> bool:
        return (not self.only_device and not self.only_simulator
                and all(e.state_agrees and e.first_divergence is None for e in self.episodes))


def read_run(folder: Path) -> dict[str, dict[str, Any]]:
    """A run folder's result rows by instance id (the last row of an instance wins)."""
    rows: dict[str, dict[str, Any]] = {}
    path = folder / RESULTS
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["instance_id"]] = row
    return rows


def read_steps(folder: Path, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The recorded steps of a result row (none when it recorded no trajectory)."""
    relative = row.get("trajectory")
    path = folder / relative if relative else folder / DIRECTORY / f"{row['instance_id']}.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _touched(step: dict[str, Any]) -> dict[str, Any] | None:
    """The element an action of `step` lands on: its index, else the smallest element holding its
    point; None for an action that touches nothing."""
    action = step.get("action") or {}
    if action.get("action_type") not in TOUCHES:
        return None
    elements = step.get("elements") or []
    index = action.get("index")
    if isinstance(index, int) and 0 <= index < len(elements):
        return elements[index]
    x, y = action.get("x"), action.get("y")
    if x is None or y is None:
        return None
    holding = [e for e in elements if e.get("bbox") and e["bbox"][0] <= x < e["bbox"][2] and e["bbox"][1] <= y < e["bbox"][3]]
    return min(holding, key=lambda e: (e["bbox"][2] - e["bbox"][0]) * (e["bbox"][3] - e["bbox"][1]), default=None)


def _pairs(device: list[dict[str, Any]], simulator: list[dict[str, Any]]) -> Iterator[tuple[dict, dict]]:
    """The elements both sides have, paired in screen order within each key."""
    waiting: dict[Key, collections.deque] = collections.defaultdict(collections.deque)
    for element in simulator:
        waiting[element_key(element)].append(element)
    for element in device:
        queue = waiting.get(element_key(element))
        if queue:
            yield element, queue.popleft()


def compare_step(number: int, screen: str, device: dict[str, Any], simulator: dict[str, Any],
                 tolerance_dp: float, density: int) -> tuple[StepDiff, list[str]]:
    """One step's differences, and every id the simulator is missing (for the screen's tally)."""
    diff = StepDiff(number, screen)
    if device.get("foreground") != simulator.get("foreground"):
        diff.foreground = (device.get("foreground"), simulator.get("foreground"))
    ours, theirs = device.get("elements") or [], simulator.get("elements") or []
    on_device = collections.Counter(element_key(e) for e in ours)
    on_sim = collections.Counter(element_key(e) for e in theirs)
    missing = sorted(describe(k) for k in (on_device - on_sim).elements())
    diff.missing, diff.extra = missing[:MAX_LISTED], sorted(describe(k) for k in (on_sim - on_device).elements())[:MAX_LISTED]
    matched = sum((on_device & on_sim).values())
    diff.counts = {"device": len(ours), "simulator": len(theirs), "matched": matched}
    for mine, other in _pairs(ours, theirs):
        label = describe(element_key(mine))
        for flag in FLAGS:
            if bool(mine.get(flag)) != bool(other.get(flag)):
                diff.flags.append(f"{label}: {flag} {bool(mine.get(flag))} on the device, {bool(other.get(flag))} simulated")
        if mine.get("bbox") and other.get("bbox"):
            error = max(abs(a - b) for a, b in zip(mine["bbox"], other["bbox"])) * BASELINE_DPI / density
            diff.worst_bounds_dp = max(diff.worst_bounds_dp, error)
            if error > tolerance_dp:
                diff.bounds.append(f"{label}: {mine['bbox']} on the device, {other['bbox']} simulated ({error:.1f} dp)")
    diff.flags, diff.bounds = diff.flags[:MAX_LISTED], diff.bounds[:MAX_LISTED]
    touched = [_touched(device), _touched(simulator)]
    if touched[0] is not None or touched[1] is not None:
        keys = [describe(element_key(t)) if t is not None else "nothing" for t in touched]
        if keys[0] != keys[1]:
            diff.lands_on = (keys[0], keys[1])
    return diff, missing


def _screens(steps: list[dict[str, Any]]) -> list[str]:
    """Each step's screen name: its foreground, and the taps that reached it on this side."""
    names, taps = [], []
    for step in steps:
        path = " > ".join(taps[-3:])
        names.append(f"{step.get('foreground') or '?'}" + (f" after {path}" if path else ""))
        touched = _touched(step)
        if touched is not None:
            taps.append(describe(element_key(touched)))
    return names


def _package(foreground: str) -> str:
    return (foreground or "?").split("/", 1)[0]


def _paired(rows: dict[str, dict[str, Any]], without_config: bool) -> dict[str, dict[str, Any]]:
    """Rows by the id they are paired on: the instance id, without its `@config` when the two sides
    ran under different device configs."""
    return {i.partition("@")[0] if without_config else i: row for i, row in rows.items()}


def compare_runs(device_dir: Path, simulator_dir: Path, tolerance_dp: float = 4.0, density: int = 420,
                 without_config: bool = False) -> Calibration:
    """Compare two run folders (a device's, the simulator's) episode by episode and step by step;
    `without_config`: pair episodes by instance id without the device config's name."""
    device_rows = _paired(read_run(device_dir), without_config)
    sim_rows = _paired(read_run(simulator_dir), without_config)
    screens: dict[str, Share] = collections.defaultdict(Share)
    apps: dict[str, Share] = collections.defaultdict(Share)
    episodes = []
    for instance_id in [i for i in device_rows if i in sim_rows]:
        mine, other = device_rows[instance_id], sim_rows[instance_id]
        fields = {f: (mine.get(f), other.get(f)) for f in EPISODE_FIELDS if mine.get(f) != other.get(f)}
        device_steps, sim_steps = read_steps(device_dir, mine), read_steps(simulator_dir, other)
        if len(device_steps) != len(sim_steps):
            fields["recorded steps"] = (len(device_steps), len(sim_steps))
        step_diffs = []
        for number, (screen, a, b) in enumerate(zip(_screens(device_steps), device_steps, sim_steps)):
            diff, missing = compare_step(a.get("step", number), screen, a, b, tolerance_dp, density)
            step_diffs.append(diff)
            screens[screen].add(diff, missing)
            apps[_package(a.get("foreground") or "")].add(diff, missing)
        diverged = [d for d in step_diffs if not d.agrees]
        first = diverged[0].step if diverged else None
        if first is None and "recorded steps" in fields:
            first = min(len(device_steps), len(sim_steps))
        at = next((i for i, d in enumerate(step_diffs) if not d.agrees), None)
        dumps = None if at is None else (device_steps[at].get("elements") or [], sim_steps[at].get("elements") or [])
        episodes.append(EpisodeDiff(instance_id, mine.get("task", ""), fields, len(device_steps), first, diverged,
                                    step_diffs, dumps, (mine["instance_id"], other["instance_id"])))
    return Calibration(episodes, dict(screens), dict(apps),
                       sorted(set(device_rows) - set(sim_rows)), sorted(set(sim_rows) - set(device_rows)))
