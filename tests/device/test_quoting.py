"""The one shell quoting function and the one SQL literal function, fuzzed against real interpreters."""
from __future__ import annotations

import shutil
import sqlite3
import subprocess

import pytest
from hypothesis import given, strategies as st

from taskkit.device.quoting import shell_join, shell_quote, sql_identifier, sql_literal

no_nul_text = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=200)
HOSTILE = ["'", "''", "'\\''", "$(id)", "`id`", "; id", "&& id", "| id", "\n id", "$HOME", "${x}", "\\", "-n", "*", "~", "#"]


@pytest.mark.skipif(shutil.which("sh") is None, reason="no POSIX sh on this machine")
@given(st.lists(no_nul_text | st.sampled_from(HOSTILE), min_size=1, max_size=4))
def test_a_posix_shell_reads_back_exactly_the_quoted_words(words):
    command = "for w in " + shell_join(words) + '; do printf "%s\\0" "$w"; done'
    out = subprocess.run(["sh", "-c", command], capture_output=True, check=True).stdout
    assert out.split(b"\0")[:-1] == [w.encode("utf-8") for w in words]


SAFE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_"  # the characters left bare


@given(st.text(st.sampled_from(SAFE) | st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)),
               max_size=30))
def test_a_word_is_left_bare_exactly_when_every_character_is_safe(text):
    bare = bool(text) and all(ch in SAFE for ch in text)
    assert (shell_quote(text) == text) == bare
    if not bare:
        assert shell_quote(text).startswith("'") and shell_quote(text).endswith("'")


def test_safe_words_stay_bare_and_nul_is_refused():
    assert shell_quote("com.android.settings/.Settings") == "com.android.settings/.Settings"
    assert shell_quote("") == "''"
    assert shell_quote("it's") == "'it'\\''s'"
    with pytest.raises(ValueError, match="NUL"):
        shell_quote("a\x00b")


sql_values = (
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False) | st.text(st.characters(blacklist_categories=("Cs",)), max_size=100)
    | st.binary(max_size=50)
)


@given(sql_values)
def test_sqlite_reads_back_exactly_the_literal(value):
    connection = sqlite3.connect(":memory:")
    (got,) = connection.execute(f"SELECT {sql_literal(value)}").fetchone()
    expected = int(value) if isinstance(value, bool) else value
    assert got == expected and type(got) is type(expected) or (isinstance(value, float) and got == value)


@given(no_nul_text)
def test_identifiers_are_quoted(name):
    connection = sqlite3.connect(":memory:")
    connection.execute(f"CREATE TABLE {sql_identifier(name or 'x')} ({sql_identifier('c' + name)})")
    assert [row[0] for row in connection.execute("SELECT name FROM sqlite_master")] == [name or "x"]


def test_sql_injection_is_inert():
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE t(v)")
    evil = "x'); DROP TABLE t; --"
    connection.executescript(f"INSERT INTO t VALUES ({sql_literal(evil)});")
    assert connection.execute("SELECT v FROM t").fetchall() == [(evil,)]
