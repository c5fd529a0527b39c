"""Param generators at run time: each draws one value from the instance's seeded `TaskRng`.

Every generator is a small object with `draw(rng, scope)`, where `scope` holds the params drawn
so far (and, inside a rows generator, the earlier fields of the row being drawn). Draws use
only `rng` (and its seeded `rng.faker`), so a seed always gives the same params.
"""
from __future__ import annotations

import copy
import functools
import dataclasses
import datetime as _dt
import decimal
from typing import Any, Mapping, Protocol, Sequence

from taskkit.apps.common import DEVICE_EPOCH, DEVICE_TZ, DAY_SECONDS
from taskkit.rng import TaskRng
from taskkit.specs import templates
from taskkit.specs.errors import SpecRuntimeError
from taskkit.specs.values import PathLookupError, Predicate, lookup, same

Scope = Mapping[str, Any]
_ENUMERATE_LIMIT = 200_000  # candidate instants enumerated before falling back to rejection
_REJECTION_TRIES = 10_000
_NOT_PROVIDERS = frozenset({"generator"})


class Generator(Protocol):
    def draw(self, rng: TaskRng, scope: Scope) -> Any: ...


@dataclasses.dataclass(frozen=True)
class Choice:
    values: tuple[Any, ...]
    weights: tuple[float, ...] = ()

    def draw(self, rng: TaskRng, scope: Scope) -> Any:
        if self.weights:
            return copy.deepcopy(rng.choices(self.values, weights=self.weights)[0])
        return copy.deepcopy(rng.choice(self.values))


@dataclasses.dataclass(frozen=True)
class IntRange:
    low: int
    high: int
    step: int = 1

    def draw(self, rng: TaskRng, scope: Scope) -> int:
        return self.low + self.step * rng.randrange((self.high - self.low) // self.step + 1)


@dataclasses.dataclass(frozen=True)
class FloatRange:
    low: float
    high: float
    decimals: int | None = None

    def draw(self, rng: TaskRng, scope: Scope) -> float:
        value = rng.uniform(self.low, self.high)
        return round(value, self.decimals) if self.decimals is not None else value


def offset_seconds(offset: Any) -> int:
    """An `Offset` message in seconds."""
    return ((offset.days * 24 + offset.hours) * 60 + offset.minutes) * 60 + offset.seconds


@dataclasses.dataclass(frozen=True)
class DateTime:
    """An instant in [low, high] (epoch seconds) on `step`-second steps, within an hour window.

    With `anchor_param`, `low` and `high` are offsets from that param's value.
    """

    low: int
    high: int
    step: int
    earliest_hour: int | None
    latest_hour: int | None
    output: str  # EPOCH_SECONDS | EPOCH_MILLIS | FORMATTED
    format: str
    anchor_param: str = ""

    def candidates(self) -> int:
        return (self.high - self.low) // self.step + 1

    def _in_window(self, instant: int) -> bool:
        hour = _dt.datetime.fromtimestamp(instant, DEVICE_TZ).hour
        low = 0 if self.earliest_hour is None else self.earliest_hour
        high = 23 if self.latest_hour is None else self.latest_hour
        return low <= hour <= high

    def instant(self, rng: TaskRng, field: str) -> int:
        count = self.candidates()
        if self.earliest_hour is None and self.latest_hour is None:
            return self.low + self.step * rng.randrange(count)
        if count <= _ENUMERATE_LIMIT:
            allowed = [t for t in range(self.low, self.high + 1, self.step) if self._in_window(t)]
            if not allowed:
                raise SpecRuntimeError(field, "no instant of the range falls inside the hour window")
            return rng.choice(allowed)
        for _ in range(_REJECTION_TRIES):
            instant = self.low + self.step * rng.randrange(count)
            if self._in_window(instant):
                return instant
        raise SpecRuntimeError(field, "the hour window excludes almost every instant of the range")

    def draw(self, rng: TaskRng, scope: Scope, field: str = "datetime") -> Any:
        if self.anchor_param:
            try:
                anchor = int(lookup(scope, self.anchor_param))
            except (PathLookupError, TypeError, ValueError) as error:
                raise SpecRuntimeError(f"{field}.anchor_param", f"{self.anchor_param}: {error}") from None
            moved = dataclasses.replace(self, low=self.low + anchor, high=self.high + anchor, anchor_param="")
            return moved.draw(rng, scope, field)
        instant = self.instant(rng, field)
        if self.output == "EPOCH_MILLIS":
            return instant * 1000
        if self.output == "FORMATTED":
            return _dt.datetime.fromtimestamp(instant, DEVICE_TZ).strftime(self.format)
        return instant


def make_datetime(message: Any) -> DateTime:
    """The DateTime generator a `DateTimeGen` message describes."""
    if message.anchor_param:
        anchor = 0
    else:
        anchor = DEVICE_EPOCH if message.anchor == 0 else DEVICE_EPOCH - DEVICE_EPOCH % DAY_SECONDS
    low = anchor + offset_seconds(message.min)
    high = anchor + offset_seconds(message.max) if message.HasField("max") else low
    step = 60 * (message.step_minutes if message.HasField("step_minutes") else 1)
    output = message.Output.Name(message.output)
    return DateTime(
        low, high, step,
        message.earliest_hour if message.HasField("earliest_hour") else None,
        message.latest_hour if message.HasField("latest_hour") else None,
        output, message.format or "%B %d %Y %H:%M", message.anchor_param,
    )


def plain(value: Any) -> Any:
    """A Faker result as plain JSON data (dates → ISO text, Decimal → float, tuples → lists)."""
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (tuple, list, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [plain(v) for v in items]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


@functools.lru_cache(maxsize=1)
def _probe_rng() -> TaskRng:
    return TaskRng(0)


def probe_rng(seed: int = 0) -> TaskRng:
    """A shared, freshly reseeded rng for load-time probes (building a Faker costs ~15 ms).

    Only the loader's checks use it; task params always come from their own `TaskRng`.
    """
    rng = _probe_rng()
    rng.seed(seed)
    rng.faker.seed_instance(rng.getrandbits(64))
    return rng


@functools.lru_cache(maxsize=None)
def faker_providers() -> frozenset[str]:
    """The public provider methods a spec may call on `rng.faker` (the en_US Faker of TaskRng)."""
    names: set[str] = set()
    for provider in _probe_rng().faker.get_providers():
        names |= {name for name in dir(provider) if not name.startswith("_") and callable(getattr(provider, name))}
    return frozenset(names - _NOT_PROVIDERS)


@dataclasses.dataclass(frozen=True)
class Faker:
    provider: str
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...]

    def draw(self, rng: TaskRng, scope: Scope) -> Any:
        return plain(getattr(rng.faker, self.provider)(*self.args, **dict(self.kwargs)))


@dataclasses.dataclass(frozen=True)
class Ref:
    path: str
    field: str

    def draw(self, rng: TaskRng, scope: Scope) -> Any:
        try:
            return copy.deepcopy(lookup(scope, self.path))
        except PathLookupError as error:
            raise SpecRuntimeError(self.field, f"{self.path}: {error}") from None


@dataclasses.dataclass(frozen=True)
class Constant:
    value: Any

    def draw(self, rng: TaskRng, scope: Scope) -> Any:
        return copy.deepcopy(self.value)


@dataclasses.dataclass(frozen=True)
class Expr:
    source: str
    field: str

    def draw(self, rng: TaskRng, scope: Scope) -> Any:
        try:
            return plain(templates.evaluate(self.source, scope))
        except Exception as error:
            raise SpecRuntimeError(self.field, f"{type(error).__name__}: {error}") from None


@dataclasses.dataclass(frozen=True)
class Template:
    source: str
    field: str

    def draw(self, rng: TaskRng, scope: Scope) -> str:
        try:
            return templates.render(self.source, scope)
        except Exception as error:
            raise SpecRuntimeError(self.field, f"{type(error).__name__}: {error}") from None


@dataclasses.dataclass(frozen=True)
class Param:
    """A named generator with its list, uniqueness and distinct-from options."""

    name: str
    field: str  # the spec path of this param, for errors
    generator: Any
    count: int | None = None
    unique: bool = False
    distinct_from: tuple[str, ...] = ()

    def _one(self, rng: TaskRng, scope: Scope) -> Any:
        if isinstance(self.generator, DateTime):
            return self.generator.draw(rng, scope, self.field)
        return self.generator.draw(rng, scope)

    def _avoid(self, scope: Scope) -> list[Any]:
        avoid: list[Any] = []
        for path in self.distinct_from:
            try:
                value = lookup(scope, path)
            except PathLookupError as error:
                raise SpecRuntimeError(f"{self.field}.distinct_from", f"{path}: {error}") from None
            avoid.extend(value if isinstance(value, list) else [value])
        return avoid

    def draw(self, rng: TaskRng, scope: Scope) -> Any:
        if self.count is None and not self.distinct_from:  # one value, and nothing it must differ from
            return self._one(rng, scope)
        avoid = self._avoid(scope) if self.distinct_from else []

        def acceptable(value: Any, taken: Sequence[Any]) -> bool:
            clash = [*avoid, *(taken if self.unique else ())]
            return not any(same(value, other, ignore_case=True) for other in clash)

        target = 1 if self.count is None else self.count
        values: list[Any] = []
        tries, limit = 0, 100 * max(target, 1)
        while len(values) < target:
            tries += 1
            if tries > limit:
                raise SpecRuntimeError(self.field, f"drew only {len(values)} of {target} acceptable values in {limit} "
                                                   "tries: unique/distinct_from reject nearly every value")
            value = self._one(rng, scope)
            if acceptable(value, values):
                values.append(value)
        return values[0] if self.count is None else values


@dataclasses.dataclass(frozen=True)
class Rows:
    """Rows of an app table: per-field generators, redrawn while an exclusion holds."""

    field: str
    table: str
    count: int
    max_count: int | None
    fields: tuple[Param, ...]
    exclude_if: tuple[Predicate, ...] = ()
    unique_by: tuple[str, ...] = ()

    def draw(self, rng: TaskRng, scope: Scope) -> list[dict[str, Any]]:
        target = self.count if self.max_count is None else rng.randint(self.count, self.max_count)
        rows: list[dict[str, Any]] = []
        excluded = [p.bound(scope) for p in self.exclude_if]
        tries, limit = 0, 100 * max(target, 1)
        while len(rows) < target:
            tries += 1
            if tries > limit:
                raise SpecRuntimeError(self.field, f"drew only {len(rows)} of {target} rows in {limit} tries: "
                                                   "exclude_if or unique_by reject nearly every row")
            row: dict[str, Any] = {}
            seen = dict(scope)  # what a field sees: the params, and the fields drawn before it in its row
            for param in self.fields:
                row[param.name] = seen[param.name] = param.draw(rng, seen)
            if any(test(row) for test in excluded):
                continue
            if any(all(same(row.get(f), other.get(f), ignore_case=True) for f in self.unique_by) for other in rows) \
                    and self.unique_by:
                continue
            rows.append(row)
        return rows


def draw_all(params: Sequence[Param], rng: TaskRng, base: Scope | None = None) -> dict[str, Any]:
    """Every param, in order, each seeing the ones before it."""
    drawn: dict[str, Any] = dict(base or {})
    for param in params:
        drawn[param.name] = param.draw(rng, drawn)
    return {param.name: drawn[param.name] for param in params}
