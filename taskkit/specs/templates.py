"""Jinja2 for specs: the goal environment's options and filters, sandboxed and deterministic.

Spec templates use the same filters as Python tasks' goal templates (`date`, `time`, `when`,
`duration`, `money`, from `taskkit.task.jinja_environment()`), in a sandboxed environment (a
spec cannot reach Python internals) without jinja's `random` filter and `lipsum` global, which
draw from the module-level random generator. `now` and `now_ms` are the device time.

`SHELL` is the same environment with every `{{ ... }}` value shell-quoted as one word.
"""
from __future__ import annotations

import functools
from typing import Any, Mapping

import jinja2
from jinja2 import meta, nodes
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment

from taskkit import compiled_templates
from taskkit.apps.common import DEVICE_EPOCH, to_ms
from taskkit.device.quoting import shell_quote
from taskkit.task import jinja_environment

BUILTINS: dict[str, Any] = {"now": DEVICE_EPOCH, "now_ms": to_ms(DEVICE_EPOCH)}
FORBIDDEN_FILTERS = frozenset({"random"})


MAX_RESULT_BITS = 4096  # an int a spec computes stays below 2**4096
MAX_SEQUENCE = 100_000  # a string or list a spec builds by `*` stays this short


class _BoundedEnvironment(SandboxedEnvironment):
    """The sandbox, with `**` and `*` refused where the result would be huge (no hang, no OOM)."""

    intercepted_binops = frozenset({"**", "*"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and _is_int(left) and _is_int(right) and right > 0 and abs(left) > 1:
            if right * max(abs(left).bit_length(), 1) > MAX_RESULT_BITS:
                raise SecurityError(f"{left} ** {right} is too large (over {MAX_RESULT_BITS} bits)")
        if operator == "*":
            for sequence, count in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and _is_int(count) and len(sequence) * count > MAX_SEQUENCE:
                    raise SecurityError(f"repeating a {type(sequence).__name__} {count} times is too long")
        return super().call_binop(context, operator, left, right)

    def make_globals(self, d: Any) -> dict[str, Any]:
        """A template's globals (`d` over the environment's) in one plain dict, not jinja's
        ChainMap: each evaluation copies them into its context, which a ChainMap makes several
        times dearer. Only a change to the environment's globals after a template was compiled
        would show the difference, and they are set once, before any (`_environment`)."""
        return {**self.globals, **(d or {})}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _environment() -> SandboxedEnvironment:
    base = jinja_environment()
    env = _BoundedEnvironment(
        undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=base.keep_trailing_newline
    )
    env.filters.update(base.filters)
    for name in FORBIDDEN_FILTERS:
        env.filters.pop(name, None)
    env.globals.pop("lipsum", None)
    env.globals.update(BUILTINS)
    return env


def _shell_word(value: Any) -> str:
    return shell_quote(value)


ENV = _environment()
SHELL = ENV.overlay(finalize=_shell_word)


@functools.lru_cache(maxsize=4096)
def _template(source: str, shell: bool) -> jinja2.Template:
    return compiled_templates.compiled(SHELL if shell else ENV, source)


@functools.lru_cache(maxsize=4096)
def _expression(source: str) -> Any:
    return ENV.compile_expression(source, undefined_to_none=False)


def render(source: str, context: Mapping[str, Any], *, shell: bool = False) -> str:
    """Render a template with `context` (the params; plus row fields inside a rows generator)."""
    return _template(source, shell).render(**context)


# Words an expression reads as a literal or an operator, never as a variable (and `self`, which
# jinja's call refuses as a variable's name).
_NOT_NAMES = frozenset({"true", "false", "none", "True", "False", "None", "and", "or", "not", "in", "is", "if", "else",
                        "self"})


def evaluate(source: str, context: Mapping[str, Any]) -> Any:
    """The value of a jinja2 expression, with its type kept (an int stays an int).

    An expression that is only the name of a variable of `context` (a row field copying
    another: `created_time`) is that value, as jinja looks it up (the context before the
    globals), without building jinja's context for it.
    """
    if source in context and source.isascii() and source.isidentifier() and source not in _NOT_NAMES:
        return context[source]
    return _expression(source)(**context)


@functools.lru_cache(maxsize=4096)
def parse(source: str, *, expression: bool = False) -> nodes.Template:
    """The template's syntax tree (shared: do not modify it); raises jinja2.TemplateSyntaxError."""
    text = f"{{{{ ({source}) }}}}" if expression else source
    tree = ENV.parse(text)
    if expression:
        _expression(source)  # a trailing `}}` or statement would have slipped through the wrapper
    return tree


@functools.lru_cache(maxsize=4096)
def free_names(tree: nodes.Template) -> frozenset[str]:
    """Names the template reads but does not define (params it needs), minus the globals; found
    once per tree (jinja finds them by generating the template's code), as `parse` shares trees."""
    return frozenset(meta.find_undeclared_variables(tree)) - set(ENV.globals)


def filters_used(tree: nodes.Template) -> set[str]:
    return {node.name for node in tree.find_all(nodes.Filter)}
