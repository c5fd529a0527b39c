"""The statistics of a run, computed from its result rows (`results.jsonl` or `EpisodeResult`s).

Success rates come with a 95 % Wilson score interval (E. B. Wilson, "Probable inference, the
law of succession, and statistical inference", JASA 22(158), 1927), which stays inside [0, 1]
and is honest for the small groups a per-app or per-tag split makes. Termination reasons,
premature and overdue episodes and the step ratio follow SPA-Bench (Chen et al., 2024,
arXiv:2410.15164): premature = declared complete but failed; overdue = achieved but never
declared (the step budget ran out); step ratio = steps / optimal steps over successful
episodes. pass^k is τ-bench's (Yao et al., 2024, arXiv:2406.12045): the chance that all k
instances of a task succeed, estimated per task as C(c, k) / C(n, k) and averaged over tasks.

Rows written before a field existed (difficulty, tags, optimal_steps, side_effects, usage)
read as unknown, so an old `results.jsonl` still has its metrics.
"""
from __future__ import annotations

import collections
import dataclasses
import math
import statistics
from typing import Any, Callable, Iterable, Mapping

from taskkit import metadata

#: How an episode ended, in the order the summary shows them.
COMPLETE, INFEASIBLE, BUDGET, ERROR = "declared complete", "declared infeasible", "step budget spent", "error"
TERMINATIONS = (COMPLETE, INFEASIBLE, BUDGET, ERROR)
NO_APP = "(none)"


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95 % by default); (0, 1) with no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclasses.dataclass(frozen=True)
class Row:
    """One episode as the metrics read it, with defaults for fields older rows lack."""

    task: str
    instance_id: str
    goal: str = ""
    apps: tuple[str, ...] = ()
    score: float = 0.0
    success: bool = False
    steps: int = 0
    max_steps: int = 0
    status: str | None = None
    reasons: tuple[str, ...] = ()
    error: str | None = None
    error_kind: str | None = None
    duration_s: float = 0.0
    trajectory: str | None = None
    difficulty: str | None = None
    tags: tuple[str, ...] = ()
    optimal_steps: int | None = None
    side_effects: tuple[str, ...] | None = None  # None: the row predates side-effect diffs
    usage: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    device_config: Mapping[str, Any] | None = None  # the device config the episode ran under
    progress: float | None = None  # the share of the task's milestones reached (None: it has none)

    @classmethod
    def of(cls, result: Any) -> "Row":
        """A row from a results.jsonl object or anything with `to_json()` (an `EpisodeResult`)."""
        data: Mapping[str, Any] = result.to_json() if hasattr(result, "to_json") else result
        side_effects = data.get("side_effects")
        return cls(
            task=str(data.get("task", "")), instance_id=str(data.get("instance_id", "")),
            goal=str(data.get("goal") or ""), apps=tuple(map(str, data.get("apps") or ())),
            score=float(data.get("score") or 0.0), success=bool(data.get("success")),
            steps=int(data.get("steps") or 0), max_steps=int(data.get("max_steps") or 0),
            status=data.get("status"), reasons=tuple(map(str, data.get("reasons") or ())),
            error=data.get("error"), error_kind=data.get("error_kind"),
            duration_s=float(data.get("duration_s") or 0.0), trajectory=data.get("trajectory"),
            difficulty=data.get("difficulty") or None, tags=tuple(map(str, data.get("tags") or ())),
            optimal_steps=int(data["optimal_steps"]) if data.get("optimal_steps") else None,
            side_effects=None if side_effects is None else tuple(map(str, side_effects)),
            usage=dict(data.get("usage") or {}),
            device_config=dict(data["device_config"]) if data.get("device_config") else None,
            progress=None if data.get("progress") is None else float(data["progress"]),
        )

    @property
    def scored(self) -> bool:
        """An episode that ended without an error: its score is the agent's."""
        return self.error_kind is None and self.error is None

    @property
    def termination(self) -> str:
        """How the episode ended: declared complete / infeasible, step budget spent, or error."""
        if not self.scored:
            return ERROR
        return {"complete": COMPLETE, "infeasible": INFEASIBLE}.get(self.status or "", BUDGET)

    @property
    def premature(self) -> bool:
        """Declared the goal complete while it was not: the agent's over-confidence."""
        return self.scored and self.status == "complete" and not self.success

    @property
    def overdue(self) -> bool:
        """Achieved the goal but never declared it: the agent kept acting until the budget ran out."""
        return self.scored and self.success and self.status is None

    @property
    def step_ratio(self) -> float | None:
        """Steps taken over the task's optimal steps, for a successful episode whose optimum is known."""
        if not (self.scored and self.success and self.optimal_steps):
            return None
        return self.steps / self.optimal_steps


def rows(results: Iterable[Any]) -> list[Row]:
    """`Row`s from result rows or `EpisodeResult`s (rows pass through)."""
    return [result if isinstance(result, Row) else Row.of(result) for result in results]


def group_stats(group: list[Row]) -> dict[str, Any]:
    """Episodes; success over all of them, an error counted as a failure, with its Wilson 95 %
    interval (the headline: errors never raise it), and the mean score likewise (an error scores
    0); beside them the errors and the success among the episodes without one
    (`success_rate_scored`); and the mean milestone progress over the scored episodes of tasks
    with milestones."""
    scored = [r for r in group if r.scored]
    progressed = [r.progress for r in scored if r.progress is not None]
    successes = sum(r.success for r in scored)
    low, high = wilson(successes, len(group))
    return {
        "episodes": len(group), "scored": len(scored), "successes": successes,
        "success_rate": successes / len(group) if group else None, "success_ci95": [low, high],
        "mean_score": sum(r.score if r.scored else 0.0 for r in group) / len(group) if group else None,
        "errors": len(group) - len(scored),
        "success_rate_scored": successes / len(scored) if scored else None,
        "mean_progress": sum(progressed) / len(progressed) if progressed else None,
    }


def group_by(results: list[Row], keys: Callable[[Row], Iterable[str]]) -> dict[str, list[Row]]:
    """The rows under each of their keys (a row with several apps or tags counts for each), sorted."""
    groups: dict[str, list[Row]] = collections.defaultdict(list)
    for row in results:
        for key in keys(row):
            groups[key].append(row)
    return dict(sorted(groups.items()))


#: The device config fields success is broken down by (B-MoCA's axes; taskkit.config).
CONFIG_FIELDS = ("device_type", "density", "font_scale", "locale", "dark", "wallpaper")


def _config_field(field: str) -> Callable[[Row], Iterable[str]]:
    return lambda row: (str(row.device_config.get(field)),) if row.device_config else ()


def _facet(row: Row, name: str) -> tuple[str, ...]:
    value = metadata.facet(row.tags, name)
    return (value,) if value else ()


#: The groupings of the summary: name -> the keys of a row.
GROUPINGS: dict[str, Callable[[Row], Iterable[str]]] = {
    "task": lambda row: (row.task,),
    "app": lambda row: row.apps or (NO_APP,),
    "difficulty": lambda row: (row.difficulty,) if row.difficulty else (),
    "benchmark": lambda row: (metadata.benchmark(row.task, row.tags),),
    "level": lambda row: _facet(row, "level"),
    "category": lambda row: _facet(row, "category"),
    "tag": lambda row: metadata.plain_tags(row.tags),
    "device_config": lambda row: (str(row.device_config.get("name")),) if row.device_config else (),
    **{f"config_{field}": _config_field(field) for field in CONFIG_FIELDS},
}


#: The groupings the summary shows after the per-task table, in order.
SUMMARY_GROUPINGS = ("app", "difficulty", "benchmark", "level", "category", "tag", "device_config",
                     *(f"config_{field}" for field in CONFIG_FIELDS))


def shown_groupings(data: Mapping[str, Any]) -> list[str]:
    """The summary's groupings that have something to show in `compute`'s `data`: any with a
    group, but the benchmark only when the run mixes benchmarks."""
    return [name for name in SUMMARY_GROUPINGS
            if data[f"per_{name}"] and (name != "benchmark" or len(data[f"per_{name}"]) > 1)]


def pass_hat_k(results: list[Row]) -> dict[str, Any]:
    """τ-bench's pass^k over the scored episodes, k being the fewest scored instances of any task,
    next to pass@1 (the mean over tasks of each task's success rate)."""
    per_task = group_by([r for r in results if r.scored], GROUPINGS["task"])
    if not per_task:
        return {"k": 0, "tasks": 0, "pass_at_1": None, "pass_hat_k": None, "tasks_all_passed": 0}
    k = min(len(group) for group in per_task.values())
    counts = [(len(group), sum(r.success for r in group)) for group in per_task.values()]
    return {
        "k": k, "tasks": len(counts),
        "pass_at_1": sum(c / n for n, c in counts) / len(counts),
        "pass_hat_k": sum(math.comb(c, k) / math.comb(n, k) for n, c in counts) / len(counts),
        "tasks_all_passed": sum(c == n for n, c in counts),
    }


def step_ratio(results: list[Row]) -> dict[str, Any]:
    """Mean and median of steps / optimal_steps over the successful episodes whose optimum is known."""
    ratios = [r.step_ratio for r in results if r.step_ratio is not None]
    return {"episodes": len(ratios), "mean": statistics.fmean(ratios) if ratios else None,
            "median": statistics.median(ratios) if ratios else None}


def add_usage(total: dict[str, Any], figures: Mapping[str, Any]) -> None:
    """Add the numeric usage figures (tokens, cost...) of a step or an episode to `total`; text
    (a model's reply, a parse error) is left out."""
    for key, value in figures.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            total[key] = total.get(key, 0) + value


def usage_totals(results: list[Row]) -> dict[str, float]:
    """Every numeric usage figure the agent reported, summed over the episodes."""
    totals: dict[str, Any] = {}
    for row in results:
        add_usage(totals, row.usage)
    return {key: round(value, 9) for key, value in sorted(totals.items())}  # 0.1 + 0.2 reads 0.3


def tokens_and_cost(totals: Mapping[str, float]) -> tuple[float | None, float | None]:
    """Total tokens (`total_tokens`, else the sum of the other `*_tokens` figures) and cost (`cost`
    or `cost_usd`), None for what the agent did not report."""
    if "total_tokens" in totals:
        tokens: float | None = totals["total_tokens"]
    else:
        parts = [value for key, value in totals.items() if key.endswith("_tokens")]
        tokens = sum(parts) if parts else None
    costs = [totals[key] for key in ("cost", "cost_usd") if key in totals]
    return tokens, (sum(costs) if costs else None)


def compute(results: Iterable[Any]) -> dict[str, Any]:
    """Every metric of the run as data (`summary.json`)."""
    results = rows(results)
    scored = [r for r in results if r.scored]
    durations = [r.duration_s for r in results]
    totals = usage_totals(results)
    tokens, cost = tokens_and_cost(totals)
    with_diff = [r for r in results if r.side_effects is not None]
    return {
        "all": group_stats(results),
        **{f"per_{name}": {key: group_stats(group) for key, group in group_by(results, keys).items()}
           for name, keys in GROUPINGS.items()},
        "termination": {reason: count for reason in TERMINATIONS
                        if (count := sum(r.termination == reason for r in results))},
        "premature_completions": sum(r.premature for r in results),
        "overdue": sum(r.overdue for r in results),
        "errors_by_kind": dict(sorted(collections.Counter(r.error_kind for r in results if r.error_kind).items())),
        "pass_k": pass_hat_k(results),
        "step_ratio": step_ratio(results),
        "mean_steps": statistics.fmean(r.steps for r in scored) if scored else None,
        "duration_s": {"total": sum(durations), "mean": statistics.fmean(durations) if durations else None},
        "usage": {"totals": totals, "tokens": tokens, "cost": cost},
        "side_effects": {"episodes_checked": len(with_diff), "episodes_with": sum(bool(r.side_effects) for r in with_diff),
                         "instances_with": [r.instance_id for r in with_diff if r.side_effects]},
    }
