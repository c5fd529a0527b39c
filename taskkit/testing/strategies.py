"""Hypothesis strategies for task authors: seeds, params drawn from a seed, hostile text.

`hostile_text()` draws strings made to break quoting: shell metacharacters that would touch
`CANARY` if they ever ran, SQL quotes, newlines and other control characters (never NUL, which
no shell argument can carry), right-to-left and combining Unicode, emoji, and 10 KB strings.
`hostile_text_for(seed)` builds one such string from a seed alone, so a failure found with it is
reproduced by naming the seed (seed 0 is `PAYLOAD`, every kind of injection at once).
"""
from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

#: The file every injected command tries to create; a property fails if it ever exists.
CANARY = "/sdcard/taskkit_canary"
SEED_MAX = 2**32 - 1
LONG_TEXT = 10 * 1024

INJECTIONS: tuple[str, ...] = tuple(
    fragment.format(c=CANARY)
    for fragment in (
        "$(touch {c})", "`touch {c}`", "; touch {c}", " && touch {c}", " || touch {c}", " | touch {c}",
        "\ntouch {c}\n", "' ; touch {c} ; '", "\" ; touch {c} ; \"", " > {c}", "$(echo x > {c})",
        "'\"'\"'$(touch {c})", "\\'; touch {c}; \\'", "${{IFS}}touch${{IFS}}{c}", "%s %d %n", "${{HOME}}",
        "$((6*7))", "'; DROP TABLE expense; --", "\"); DELETE FROM sms; --", "--bind x:s:y", "a:b\\:c",
        "*", "~", "#not a comment", "!!", "\\", "\\n", "--", "-rf",
    )
)
UNICODE: tuple[str, ...] = (
    "\u202eRTL override\u202c", "\u200fעברית\u200e", "العربية", "e\u0301\u0302", "Z\u0351\u0338\u0336",
    "日本語", "한국어", "🙂", "👩\u200d👩\u200d👧", "🇺🇸", "\u200b", "\ufeff", "\u00a0", "İ", "ß", "ﬁ",
)
# Control characters other than NUL (NUL cannot travel in a shell argument or a C string).
CONTROLS: tuple[str, ...] = tuple(chr(c) for c in range(1, 32)) + ("\x7f", "\x85", "\u2028", "\u2029")
#: Every kind of trouble at once: what `hostile_text_for(0)` returns.
PAYLOAD = "It's \"" + "".join(INJECTIONS[:12]) + "\" " + " ".join(UNICODE[:10]) + " \t\r\x0b\x0c\x1b[31m end"


def seeds() -> st.SearchStrategy[int]:
    """Task instance seeds (0 … 2**32-1); failures shrink toward 0."""
    return st.integers(min_value=0, max_value=SEED_MAX)


def params_for(task_cls: Any) -> st.SearchStrategy[dict[str, Any]]:
    """The params `task_cls` draws from a seed drawn by `seeds()` (schema-checked)."""
    return seeds().map(lambda seed: task_cls.from_seed(seed).params)


def _plain_text() -> st.SearchStrategy[str]:
    return st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)


def hostile_text() -> st.SearchStrategy[str]:
    """Strings built to break quoting (see the module docstring); never contain NUL."""
    fragment = st.one_of(
        st.sampled_from(INJECTIONS), st.sampled_from(UNICODE),
        st.text(st.sampled_from(CONTROLS), min_size=1, max_size=3), _plain_text(),
    )
    short = st.lists(fragment, min_size=1, max_size=8).map("".join)
    long = st.lists(st.sampled_from(INJECTIONS + UNICODE), min_size=1, max_size=4).map(_ten_kilobytes)
    return st.one_of(short, long).filter(lambda text: text.strip() != "")


def _ten_kilobytes(fragments: list[str]) -> str:
    unit = "".join(fragments) + " "
    return (unit * (LONG_TEXT // len(unit) + 1))[:LONG_TEXT]


def hostile_text_for(seed: int) -> str:
    """One hostile string determined by `seed` alone: seed 0 is `PAYLOAD`; every 8th is 10 KB."""
    if seed == 0:
        return PAYLOAD
    rng = random.Random(seed)
    pools = (INJECTIONS, UNICODE, CONTROLS, INJECTIONS)
    fragments = [rng.choice(rng.choice(pools)) for _ in range(rng.randint(2, 8))]
    fragments.insert(0, rng.choice(INJECTIONS))  # at least one injection attempt in every string
    return _ten_kilobytes(fragments) if seed % 8 == 7 else "".join(fragments)
