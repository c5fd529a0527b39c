"""Answer validators: the agent's `answer` matches the expected text or number."""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless
from taskkit.validators.fuzzy import DEFAULT_THRESHOLD, fuzzy_match


@dataclasses.dataclass(frozen=True)
class AnswerEquals(Stateless):
    expected: str
    kind: str  # "string" or "number"
    tolerance: float
    threshold: float

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        answer = (env.answer or "").strip()
        if not answer:
            return CheckResult(0.0, ("no answer was given",))
        if self.kind == "number":
            numbers = re.findall(r"-?\d+(?:\.\d+)?", answer.replace(",", ""))
            ok = len(numbers) == 1 and abs(float(numbers[0]) - float(self.expected)) <= self.tolerance
        else:
            ok = fuzzy_match(answer, self.expected, self.threshold)
        return CheckResult.verdict([] if ok else [f"answer {answer!r} does not match {self.expected!r}"])


def answer_equals(expected: object, *, kind: str = "string", tolerance: float = 0.0,
                  threshold: float = DEFAULT_THRESHOLD) -> AnswerEquals:
    """The agent answered `expected` (fuzzy text, or a number within `tolerance`)."""
    if kind not in ("string", "number"):
        raise ValueError(f"answer kind must be 'string' or 'number', got {kind!r}")
    return AnswerEquals(str(expected), kind, tolerance, threshold)
