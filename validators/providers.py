"""Content-provider validators: a row matching given fields exists (e.g. an SMS was sent)."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterable, Mapping

from taskkit.env import TaskEnv
from taskkit.validators.base import CheckResult, Stateless
from taskkit.validators.fuzzy import DEFAULT_THRESHOLD
from taskkit.validators.rows import FieldMatcher, Row, _brief, _matcher


@dataclasses.dataclass(frozen=True)
class ProviderRowExists(Stateless):
    uri: str
    match: Row
    matcher: FieldMatcher

    def evaluate(self, env: TaskEnv, snapshot: Any) -> CheckResult:
        rows = env.device.content.query(self.uri, projection=list(self.match))
        if any(self.matcher.row_matches(self.match, row) for row in rows):
            return CheckResult(1.0)
        return CheckResult(0.0, (f"{self.uri}: no row matches {_brief(self.match)} (among {len(rows)} rows)",))


def provider_row_exists(uri: str, match: Row, *, fuzzy: Iterable[str] = (),
                        normalize: Mapping[str, Callable[[Any], Any]] | None = None,
                        threshold: float = DEFAULT_THRESHOLD) -> ProviderRowExists:
    """Some row of `uri` has the fields in `match` (fuzzy ones compared fuzzily)."""
    return ProviderRowExists(uri, dict(match), _matcher(fuzzy, normalize, threshold))
