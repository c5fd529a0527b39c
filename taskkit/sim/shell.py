"""The simulator's `/system/bin/sh -c`: a subset of mksh R59, interpreted in process.

`run(state, command)` parses `command` as Android's mksh would and executes it against the
simulated device: builtins here, every other command from the `taskkit.sim.commands` registry
(by name, or by path under /system/bin, /system/xbin, /vendor/bin, ...).

Supported: single quotes (all literal), double quotes (`$VAR`, `${...}`, `$(...)`, backticks,
`$((...))`, and the escapes `\\$ \\" \\\\ \\``), backslash escapes, `#` comments, `;`, `&`
(runs in the foreground), newlines, `&&`, `||`, `!`, pipes, redirections (`<`, `>`, `>|`,
`>>`, `<>`, `N>&M`, `N>&-`, `&>`, `<<`, `<<-`, `/dev/null`, `/dev/stderr`), variables and
assignments, `$?`, `$#`, `$@`, `$0`..`$9`, `$$`, `${X:-w}`-style operators, `${#X}`, `${X#p}`-style
trimming, field splitting on IFS, `~`, pathname globbing (sorted), `{ ...; }`, `( ... )`,
`if`, `while`, `until`, `for`, `case`, and the builtins `: true false echo cd pwd test [ exit
export unset eval exec read shift set break continue wait umask`. `sh` and `su` are registry
commands defined here, so `find -exec sh -c ...`, `xargs sh -c ...` and `su 0 sh -c ...` work.

Messages follow mksh: `/system/bin/sh: NAME: inaccessible or not found` (127), `can't create`
/ `can't open` for redirections (1), `/system/bin/sh: syntax error: ...` (1; the complete lines
before the error still run, as mksh reads -c input line by line).

Not supported (documented gaps): functions, `set -e`/`-x`, aliases, job control, non-whitespace
IFS semantics (every IFS character acts like whitespace), and more than `MAX_LOOP_ITERATIONS`
loop iterations in one shell (stopped with an error instead of hanging the simulator). A
command that reads stdin consumes all of it, whether or not the real tool would.

Speed: parsed programs are cached; each command costs one registry lookup and one
`Invocation`; no subprocesses.
"""
from __future__ import annotations

import dataclasses
import errno
import functools
import os
import re
import stat as stat_mod
import threading
from pathlib import Path
from typing import Callable, Iterator, Mapping, Union

from taskkit import bounded
from taskkit.device.base import ShellResult
from taskkit.device.quoting import shell_quote
from taskkit.errors import TaskkitError
from taskkit.sim import commands as registry
from taskkit.sim import audit_events, limits, storage
from taskkit.sim.commands import Invocation, command
from taskkit.sim.commands.toybox import (check_writable_parent, echo_output, evaluate_test_command,
                                         glob_regex)
from taskkit.sim.state import SimState

SH = "/system/bin/sh"
MAX_LOOP_ITERATIONS = 100_000
MAX_DEPTH = 64
SHELL_PID = 4180
_PATH = ("/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:"
         "/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin")


# ============================================================================================
# Syntax tree
# ============================================================================================
# A word is a tuple of parts:
#   ("L", text)                      unquoted literal (globbing applies)
#   ("Q", text)                      quoted literal
#   ("V", name, op, arg, quoted)     parameter: op None | "len" | ":-" "-" ":=" "=" ":+" "+"
#                                    ":?" "?" "#" "##" "%" "%%"; arg is a Word or None
#   ("C", program, quoted)           command substitution
#   ("A", word, quoted)              arithmetic expansion


@dataclasses.dataclass(frozen=True)
class Word:
    parts: tuple
    plain: str | None = None    # the text when the word is unquoted literal text only
    static: str | None = None   # the final text when no expansion can change it


def _globs(pieces: list[tuple[str, bool]]) -> bool:
    """Whether a field of (text, unquoted) pieces is a pattern that may expand to something other
    than its own text: an unquoted `*` or `?`, or an unquoted `[` that a `]` may close, or one in
    a path (matched folder by folder, and joined again). A lone `[` (the test command's name)
    matches only a file of its own name, which globs to the same text: no folder is listed."""
    text, bracket = "", -1
    for piece, unquoted in pieces:
        if unquoted:
            if "*" in piece or "?" in piece:
                return True
            if bracket < 0 and "[" in piece:
                bracket = len(text) + piece.index("[")
        text += piece
    return bracket >= 0 and ("]" in text[bracket + 1:] or "/" in text)


def _without_empty_quotes(parts: list) -> list:
    """`parts` less its empty quoted texts (the lexer ends every `"..."` with one) where they
    change nothing: no unquoted expansion splits the word into fields, and another quoted part
    keeps its one field even when empty (and the word from reading as a bare keyword or name).
    So `"$p"` is one expansion, and `"$@"` gives no field when there are no parameters."""
    if any(p[0] not in "LQ" and not p[-1] for p in parts):
        return parts
    kept = [p for p in parts if p[0] != "Q" or p[1]]
    if len(kept) == len(parts) or not any(p[0] == "Q" or (p[0] != "L" and p[-1]) for p in kept):
        return parts
    return kept


def _make_word(parts: list) -> Word:
    merged: list = []
    run: list[str] = []  # the texts of the last run of literal parts of one kind, joined once:
    for part in parts:   # a long quoted SQL argument comes in thousands of parts
        if run and part[0] == merged[-1][0]:
            run.append(part[1])
            continue
        if len(run) > 1:
            merged[-1] = (merged[-1][0], "".join(run))
        run = [part[1]] if part[0] in "LQ" else []
        merged.append(part)
    if len(run) > 1:
        merged[-1] = (merged[-1][0], "".join(run))
    if len(merged) > 1:
        merged = _without_empty_quotes(merged)
    plain = merged[0][1] if len(merged) == 1 and merged[0][0] == "L" else None
    static = None
    if all(p[0] in "LQ" for p in merged) and merged:
        if not _globs([(p[1], p[0] == "L") for p in merged]) and not (
            merged[0][0] == "L" and merged[0][1].startswith("~")
        ):
            static = "".join(p[1] for p in merged)
    return Word(tuple(merged), plain, static)


@dataclasses.dataclass
class Redir:
    fd: int
    op: str
    target: Word
    body: Word | None = None  # here-documents


@dataclasses.dataclass(frozen=True)
class Simple:
    assigns: tuple
    words: tuple
    redirs: tuple


@dataclasses.dataclass(frozen=True)
class Pipeline:
    cmds: tuple
    negate: bool


@dataclasses.dataclass(frozen=True)
class AndOr:
    first: object
    rest: tuple  # ((op, pipeline), ...)


@dataclasses.dataclass(frozen=True)
class Seq:
    items: tuple


@dataclasses.dataclass(frozen=True)
class Group:
    body: Seq
    subshell: bool
    redirs: tuple


@dataclasses.dataclass(frozen=True)
class If:
    clauses: tuple  # ((cond, body), ...)
    else_body: Seq | None
    redirs: tuple


@dataclasses.dataclass(frozen=True)
class Loop:
    cond: Seq
    body: Seq
    until: bool
    redirs: tuple


@dataclasses.dataclass(frozen=True)
class For:
    name: str
    words: tuple | None  # None: "$@"
    body: Seq
    redirs: tuple


@dataclasses.dataclass(frozen=True)
class Case:
    word: Word
    items: tuple  # ((patterns, body), ...)
    redirs: tuple


Node = Union[Simple, Pipeline, AndOr, Seq, Group, If, Loop, For, Case]


# ============================================================================================
# Parser
# ============================================================================================
class ShellSyntaxError(TaskkitError):
    """A parse error; `done` holds the complete lines before it (mksh runs those first)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.done: Seq = Seq(())


_WORD, _OP, _IO, _NL, _EOF = range(5)
_RE_PLAIN = re.compile(r"[^ \t\n;&|<>()\\'\"$`]+")
# Single-quoted text, and any more of it joined by '\'' (close, an escaped quote, open again): the
# form shell_quote gives a quote; one match instead of three parts per quote in a long SQL argument.
_RE_QUOTED_RUN = re.compile(r"'[^']*(?:'\\''[^']*)*'")
_QUOTE_IN_QUOTES = "'\\''"
_RE_DQ_PLAIN = re.compile(r'[^"\\$`]+')
_RE_HD_PLAIN = re.compile(r"[^\\$`]+")
_RE_BRACE_PLAIN = re.compile(r"[^}\\'\"$`]+")
_RE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RE_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")
_RE_IO = re.compile(r"([0-9]*)(>>|>&|>\||<<-|<<|<&|<>|>|<)")
_RE_BLANK = re.compile(r"(?:[ \t]|\\\n)+")
_LIST_END_WORDS = frozenset({"then", "else", "elif", "fi", "do", "done", "}", "esac"})
_PARAM_OPS = (":-", ":=", ":+", ":?", "##", "%%", "-", "=", "+", "?", "#", "%")
_PATTERN_OPS = frozenset({"#", "##", "%", "%%"})
# The tokens of whole lines (see _Parser._line_tokens): each with where it ends in its line.
_LINE_TOKENS: dict[str, tuple[tuple[tuple, int], ...]] = {}
_LINE_TOKENS_MAX = 1024  # lines kept (the oldest goes first)
_LINE_MAX = 1024  # characters: longer lines are lexed each time
# The and-or lists parsed from a kept line's tokens (see _Parser.parse_and_or), by (line, where it
# starts): the line's tokens, the list and where its lookahead stands.
_AND_ORS: dict[tuple[int, int], tuple[tuple, object, int]] = {}


class _Parser:
    def __init__(self, src: str, pos: int = 0):
        self.s = src
        self.n = len(src)
        self.i = pos
        self.tok: tuple | None = None
        self.pending_heredocs: list[tuple[Redir, str, bool, bool]] = []
        # a line's tokens, each with where it ends from the line's start (`based`), and the next one's index
        self.queued: tuple[tuple[tuple, int], ...] = ()
        self.based = self.next_queued = 0
        self.kept_line = False  # `queued` is a kept line's (the same object wherever the line recurs)
        self.tok_at = -1  # where the last token read stands in `queued` (-1: lexed, not from it)

    # --- lexer ------------------------------------------------------------------------------
    def peek(self) -> tuple:
        tok = self.tok
        if tok is None:
            tok = self.tok = self._next_token()
        return tok

    def _next_token(self) -> tuple:
        """The next token: lexed, or taken from the tokens of the line it starts (looked up, or
        lexed ahead, when the lexer stands at the start of a line)."""
        queued, at = self.queued, self.next_queued
        if at >= len(queued):
            self.tok_at = -1
            i = self.i
            if not ((i == 0 or self.s[i - 1] == "\n") and not self.pending_heredocs):
                return self._lex()
            queued, at = self.queued, self.next_queued = self._line_tokens(i), 0
            self.based = i
            if not queued:
                return self._lex()
        tok, end = queued[at]
        self.next_queued, self.i, self.tok_at = at + 1, self.based + end, at
        return tok

    def _line_tokens(self, i: int) -> tuple[tuple[tuple, int], ...]:
        """The tokens from `i`, the start of a line, through its newline, and where each ends from
        `i`; kept for the line's next time when they all lie within it.

        Lexing depends on nothing but the text from where it stands, so a line's tokens are
        the same wherever the line recurs, if none reaches past its newline (a quote, a `$(`
        or a `\\` going on to the next line) and the line holds no here-document (its body
        follows the newline) and no `$((` (whose end is sought past the line). Lexing ahead
        stops after a token that reaches past the line, and before one that fails to lex
        (lexed again when the parser gets there: it may meet another error first)."""
        s = self.s
        j = s.find("\n", i)
        self.kept_line = False
        if j < 0 or j - i >= _LINE_MAX:
            return ()
        line = s[i:j + 1]
        kept = _LINE_TOKENS.get(line)
        self.kept_line = kept is not None
        if kept is not None:
            return kept
        if "<<" in line or "$((" in line:
            return ()
        lexed: list[tuple[tuple, int]] = []
        try:
            while not lexed or (lexed[-1][0][0] != _NL and lexed[-1][1] <= j):
                lexed.append((self._lex(), self.i))
        except ShellSyntaxError:
            pass
        self.i = i
        tokens = tuple((tok, end - i) for tok, end in lexed)
        if lexed and lexed[-1][0][0] == _NL and lexed[-1][1] == j + 1:
            bounded.put(_LINE_TOKENS, line, tokens, _LINE_TOKENS_MAX)
            self.kept_line = True
        return tokens

    def advance(self) -> tuple:
        tok = self.tok
        if tok is None:
            return self._next_token()
        self.tok = None
        return tok

    def _lex(self) -> tuple:
        s, n = self.s, self.n
        m = _RE_BLANK.match(s, self.i)
        if m:
            self.i = m.end()
        i = self.i
        if i < n and s[i] == "#":
            j = s.find("\n", i)
            i = self.i = n if j < 0 else j
        if i >= n:
            if self.pending_heredocs:
                raise ShellSyntaxError(f"here document '{self.pending_heredocs[0][1]}' unclosed")
            return (_EOF,)
        c = s[i]
        if c == "\n":
            self.i = i + 1
            if self.pending_heredocs:
                self._read_heredocs()
            return (_NL,)
        two = s[i:i + 2]
        if two == "&>":
            self.i = i + 3 if s.startswith("&>>", i) else i + 2
            return (_IO, "", s[i:self.i])
        if two in ("&&", "||", ";;"):
            self.i = i + 2
            return (_OP, two)
        if c in ";&|()":
            self.i = i + 1
            return (_OP, c)
        if c in "<>0123456789":
            m = _RE_IO.match(s, i)
            if m:
                self.i = m.end()
                return (_IO, m.group(1), m.group(2))
        return (_WORD, _make_word(self._lex_word()))

    def _lex_word(self) -> list:
        s, n = self.s, self.n
        parts: list = []
        i = self.i
        while i < n:
            c = s[i]
            if c in " \t\n;&|<>()":
                break
            if c == "\\":
                if i + 1 >= n:
                    parts.append(("L", "\\"))
                    i += 1
                elif s[i + 1] == "\n":
                    i += 2
                else:
                    parts.append(("Q", s[i + 1]))
                    i += 2
            elif c == "'":
                m = _RE_QUOTED_RUN.match(s, i)  # quoted text with quotes written '\'' (shell_quote's form)
                if m is None:
                    raise ShellSyntaxError("no closing quote")
                parts.append(("Q", m.group()[1:-1].replace(_QUOTE_IN_QUOTES, "'")))
                i = m.end()
            elif c == '"':
                self.i = i + 1
                self._lex_quoted(parts, _RE_DQ_PLAIN, '"')
                i = self.i
            elif c == "$":
                self.i = i
                self._lex_dollar(parts, False)
                i = self.i
            elif c == "`":
                self.i = i
                self._lex_backtick(parts, False)
                i = self.i
            else:
                m = _RE_PLAIN.match(s, i)
                parts.append(("L", m.group()))
                i = m.end()
        self.i = i
        return parts

    def _lex_quoted(self, parts: list, plain_re: re.Pattern, closing: str | None) -> None:
        """Double-quote-like text up to `closing` (None: to the end): `$` and backticks expand,
        a backslash escapes `$`, a backtick, itself, a newline and `closing`."""
        s, n = self.s, self.n
        i = self.i
        text: list[str] = []
        while True:
            if i >= n:
                if closing is not None:
                    raise ShellSyntaxError("no closing quote")
                break
            c = s[i]
            if c == closing:
                i += 1
                break
            if c == "\\":
                nxt = s[i + 1] if i + 1 < n else ""
                if nxt in ("$", "`", "\\") or (nxt and nxt == closing):
                    text.append(nxt)
                    i += 2
                elif nxt == "\n":
                    i += 2
                else:
                    text.append("\\")
                    i += 1
            elif c in "$`":
                if text:
                    parts.append(("Q", "".join(text)))
                    text = []
                self.i = i
                if c == "$":
                    self._lex_dollar(parts, True)
                else:
                    self._lex_backtick(parts, True)
                i = self.i
            else:
                m = plain_re.match(s, i)
                text.append(m.group())
                i = m.end()
        parts.append(("Q", "".join(text)))  # even "" makes an (empty) field
        self.i = i

    def _lex_dollar(self, parts: list, quoted: bool) -> None:
        s, n = self.s, self.n
        i = self.i + 1
        c = s[i] if i < n else ""
        if c == "(":
            if s.startswith("((", i):
                end = _scan_arith(s, i + 2)
                if end is not None:
                    inner = _Parser(s[i + 2:end]).lex_text()
                    parts.append(("A", _make_word(inner), quoted))
                    self.i = end + 2
                    return
            sub = _Parser(s, i + 1)
            program = sub.parse_subst()
            parts.append(("C", program, quoted))
            self.i = sub.i
        elif c == "{":
            self._lex_braced(parts, quoted, i + 1)
        elif c and c in "?#$!@*-0123456789":
            parts.append(("V", c, None, None, quoted))
            self.i = i + 1
        else:
            m = _RE_NAME.match(s, i)
            if m:
                parts.append(("V", m.group(), None, None, quoted))
                self.i = m.end()
            else:
                parts.append(("Q" if quoted else "L", "$"))
                self.i = i

    def _lex_braced(self, parts: list, quoted: bool, i: int) -> None:
        s, n = self.s, self.n
        length = False
        if i < n and s[i] == "#" and i + 1 < n and s[i + 1] != "}":
            length = True
            i += 1
        m = _RE_NAME.match(s, i)
        if m:
            name, i = m.group(), m.end()
        elif i < n and s[i].isdigit():
            j = i
            while j < n and s[j].isdigit():
                j += 1
            name, i = s[i:j], j
        elif i < n and s[i] in "?#$!@*-":
            name, i = s[i], i + 1
        else:
            raise ShellSyntaxError("${...}: bad substitution")
        if length:
            if i >= n or s[i] != "}":
                raise ShellSyntaxError("${...}: bad substitution")
            parts.append(("V", name, "len", None, quoted))
            self.i = i + 1
            return
        if i < n and s[i] == "}":
            parts.append(("V", name, None, None, quoted))
            self.i = i + 1
            return
        op = next((o for o in _PARAM_OPS if s.startswith(o, i)), None)
        if op is None:
            raise ShellSyntaxError("${...}: bad substitution")
        self.i = i + len(op)
        arg = _make_word(self._lex_brace_arg(quoted, op in _PATTERN_OPS))
        parts.append(("V", name, op, arg, quoted))

    def _lex_brace_arg(self, quoted: bool, pattern: bool = False) -> list:
        """The word after a `${name<op>`; inside double quotes its plain text is quoted, but for
        a pattern (`#`, `##`, `%`, `%%`), whose characters the enclosing quotes do not quote
        (POSIX XCU 2.6.2, Parameter Expansion)."""
        s, n = self.s, self.n
        parts: list = []
        i = self.i
        kind = "Q" if quoted and not pattern else "L"
        while True:
            if i >= n:
                raise ShellSyntaxError("no closing quote")
            c = s[i]
            if c == "}":
                i += 1
                break
            if c == "\\":
                if i + 1 < n:
                    parts.append(("Q", s[i + 1]))
                i += 2
            elif c == "'" and not quoted:
                j = s.find("'", i + 1)
                if j < 0:
                    raise ShellSyntaxError("no closing quote")
                parts.append(("Q", s[i + 1:j]))
                i = j + 1
            elif c == "'":
                parts.append(("Q", "'"))
                i += 1
            elif c == '"':
                self.i = i + 1
                self._lex_quoted(parts, _RE_DQ_PLAIN, '"')
                i = self.i
            elif c in "$`":
                self.i = i
                if c == "$":
                    self._lex_dollar(parts, quoted)
                else:
                    self._lex_backtick(parts, quoted)
                i = self.i
            else:
                m = _RE_BRACE_PLAIN.match(s, i)
                parts.append((kind, m.group()))
                i = m.end()
        self.i = i
        return parts

    def _lex_backtick(self, parts: list, quoted: bool) -> None:
        s, n = self.s, self.n
        i = self.i + 1
        buf: list[str] = []
        while True:
            if i >= n:
                raise ShellSyntaxError("no closing quote")
            c = s[i]
            if c == "`":
                i += 1
                break
            if c == "\\" and i + 1 < n and (s[i + 1] in "$`\\" or (quoted and s[i + 1] == '"')):
                buf.append(s[i + 1])
                i += 2
                continue
            buf.append(c)
            i += 1
        parts.append(("C", parse("".join(buf)), quoted))
        self.i = i

    def lex_text(self) -> list:
        """Lex here-document-like text (to the end): see `_lex_quoted`."""
        parts: list = []
        self._lex_quoted(parts, _RE_HD_PLAIN, None)
        return parts

    def _read_heredocs(self) -> None:
        s = self.s
        for redir, delim, quoted, strip_tabs in self.pending_heredocs:
            lines: list[str] = []
            while True:
                if self.i >= self.n:
                    raise ShellSyntaxError(f"here document '{delim}' unclosed")
                j = s.find("\n", self.i)
                line = s[self.i:] if j < 0 else s[self.i:j]
                self.i = self.n if j < 0 else j + 1
                if strip_tabs:
                    line = line.lstrip("\t")
                if line == delim:
                    break
                lines.append(line + "\n")
            body = "".join(lines)
            redir.body = (_make_word([("Q", body)]) if quoted
                          else _make_word(_Parser(body).lex_text()))
        self.pending_heredocs = []

    # --- grammar ----------------------------------------------------------------------------
    def _unexpected(self, tok: tuple) -> ShellSyntaxError:
        kind = tok[0]
        if kind == _EOF:
            return ShellSyntaxError("unexpected EOF")
        if kind == _NL:
            return ShellSyntaxError("newline unexpected")
        if kind == _WORD:
            text = "".join(p[1] if p[0] in "LQ" else "$" for p in tok[1].parts)
            return ShellSyntaxError(f"'{text}' unexpected")
        if kind == _IO:
            return ShellSyntaxError(f"'{tok[1]}{tok[2]}' unexpected")
        return ShellSyntaxError(f"'{tok[1]}' unexpected")

    def _skip_nl(self) -> None:
        while self.peek()[0] == _NL:
            self.advance()

    def _is_word(self, tok: tuple, text: str) -> bool:
        return tok[0] == _WORD and tok[1].plain == text

    def _expect_word(self, text: str) -> None:
        tok = self.peek()
        if not self._is_word(tok, text):
            raise self._unexpected(tok)
        self.advance()

    def parse_program(self) -> Seq:
        items: list = []
        safe = 0
        try:
            while True:
                tok = self.peek()
                if tok[0] == _NL:
                    self.advance()
                    safe = len(items)
                    continue
                if tok[0] == _EOF:
                    break
                items.append(self.parse_and_or())
                tok = self.peek()
                if tok[0] == _OP and tok[1] in (";", "&"):
                    self.advance()
                elif tok[0] not in (_NL, _EOF):
                    raise self._unexpected(tok)
        except ShellSyntaxError as exc:
            exc.done = Seq(tuple(items[:safe]))
            raise
        return Seq(tuple(items))

    def parse_subst(self) -> Seq:
        body = self.parse_list()
        tok = self.peek()
        if tok != (_OP, ")"):
            raise self._unexpected(tok)
        self.advance()
        return body

    def _at_list_end(self, tok: tuple) -> bool:
        kind = tok[0]
        if kind == _EOF:
            return True
        if kind == _OP:
            return tok[1] in (")", ";;")
        return kind == _WORD and tok[1].plain in _LIST_END_WORDS

    def parse_list(self) -> Seq:
        items: list = []
        self._skip_nl()
        while not self._at_list_end(self.peek()):
            items.append(self.parse_and_or())
            tok = self.peek()
            if tok[0] == _OP and tok[1] in (";", "&"):
                self.advance()
                self._skip_nl()
            elif tok[0] == _NL:
                self._skip_nl()
            else:
                break
        return Seq(tuple(items))

    def parse_and_or(self) -> object:
        """An and-or list. One that starts and ends (its lookahead too) within a kept line is
        kept by the line and where it starts: its parse depends on nothing but those tokens, the
        same objects wherever the line recurs (a batch's failure markers, the restore point's
        commands, `am force-stop PKG`)."""
        self.peek()
        line, at, based = self.queued, self.tok_at, self.based
        if at < 0 or not self.kept_line or self.pending_heredocs:
            return self._parse_and_or()
        found = _AND_ORS.get((id(line), at))
        if found is not None and found[0] is line:
            _, node, stop = found
            self.tok, self.tok_at, self.next_queued, self.i = line[stop][0], stop, stop + 1, based + line[stop][1]
            return node
        node = self._parse_and_or()
        if self.queued is line and self.based == based and self.tok_at >= 0 and not self.pending_heredocs:
            bounded.put(_AND_ORS, (id(line), at), (line, node, self.tok_at), _LINE_TOKENS_MAX)
        return node

    def _parse_and_or(self) -> object:
        first = self.parse_pipeline()
        rest = []
        while True:
            tok = self.peek()
            if tok[0] == _OP and tok[1] in ("&&", "||"):
                self.advance()
                self._skip_nl()
                rest.append((tok[1], self.parse_pipeline()))
            else:
                break
        return AndOr(first, tuple(rest)) if rest else first

    def parse_pipeline(self) -> object:
        negate = False
        if self._is_word(self.peek(), "!"):
            self.advance()
            negate = True
        cmds = [self.parse_command()]
        while self.peek() == (_OP, "|"):
            self.advance()
            self._skip_nl()
            cmds.append(self.parse_command())
        if len(cmds) == 1 and not negate:
            return cmds[0]
        return Pipeline(tuple(cmds), negate)

    def _redirs(self) -> tuple:
        redirs = []
        while self.peek()[0] == _IO:
            redirs.append(self.parse_redir())
        return tuple(redirs)

    def parse_command(self) -> object:
        tok = self.peek()
        if tok == (_OP, "("):
            self.advance()
            body = self.parse_list()
            if self.peek() != (_OP, ")"):
                raise self._unexpected(self.peek())
            self.advance()
            return Group(body, True, self._redirs())
        if tok[0] == _WORD:
            word = tok[1].plain
            if word == "{":
                self.advance()
                body = self.parse_list()
                self._expect_word("}")
                return Group(body, False, self._redirs())
            if word == "if":
                return self._parse_if()
            if word in ("while", "until"):
                self.advance()
                cond = self.parse_list()
                self._expect_word("do")
                body = self.parse_list()
                self._expect_word("done")
                return Loop(cond, body, word == "until", self._redirs())
            if word == "for":
                return self._parse_for()
            if word == "case":
                return self._parse_case()
            if word in _LIST_END_WORDS:
                raise self._unexpected(tok)
        return self.parse_simple()

    def _parse_if(self) -> If:
        self.advance()
        clauses = []
        else_body = None
        while True:
            cond = self.parse_list()
            self._expect_word("then")
            clauses.append((cond, self.parse_list()))
            tok = self.peek()
            if self._is_word(tok, "elif"):
                self.advance()
                continue
            if self._is_word(tok, "else"):
                self.advance()
                else_body = self.parse_list()
            self._expect_word("fi")
            break
        return If(tuple(clauses), else_body, self._redirs())

    def _parse_for(self) -> For:
        self.advance()
        tok = self.advance()
        if tok[0] != _WORD or tok[1].plain is None or not _RE_NAME.fullmatch(tok[1].plain):
            raise self._unexpected(tok)
        name = tok[1].plain
        self._skip_nl()
        words = None
        if self._is_word(self.peek(), "in"):
            self.advance()
            collected = []
            while self.peek()[0] == _WORD:
                collected.append(self.advance()[1])
            words = tuple(collected)
        tok = self.peek()
        if tok == (_OP, ";"):
            self.advance()
        self._skip_nl()
        self._expect_word("do")
        body = self.parse_list()
        self._expect_word("done")
        return For(name, words, body, self._redirs())

    def _parse_case(self) -> Case:
        self.advance()
        tok = self.advance()
        if tok[0] != _WORD:
            raise self._unexpected(tok)
        subject = tok[1]
        self._skip_nl()
        self._expect_word("in")
        self._skip_nl()
        items = []
        while not self._is_word(self.peek(), "esac"):
            if self.peek() == (_OP, "("):
                self.advance()
            patterns = []
            while True:
                tok = self.advance()
                if tok[0] != _WORD:
                    raise self._unexpected(tok)
                patterns.append(tok[1])
                if self.peek() == (_OP, "|"):
                    self.advance()
                    continue
                break
            if self.peek() != (_OP, ")"):
                raise self._unexpected(self.peek())
            self.advance()
            body = self.parse_list()
            items.append((tuple(patterns), body))
            if self.peek() == (_OP, ";;"):
                self.advance()
                self._skip_nl()
            else:
                break
        self._expect_word("esac")
        return Case(subject, tuple(items), self._redirs())

    def parse_redir(self) -> Redir:
        _, fd_text, op = self.advance()
        fd = int(fd_text) if fd_text else (0 if op[0] == "<" else 1)
        if op.startswith("&"):
            fd = -1  # both stdout and stderr
        tok = self.peek()
        if tok[0] != _WORD:
            raise self._unexpected(tok)
        self.advance()
        redir = Redir(fd, op, tok[1])
        if op in ("<<", "<<-"):
            delim = "".join(p[1] for p in tok[1].parts if p[0] in "LQ")
            quoted = any(p[0] != "L" for p in tok[1].parts)
            self.pending_heredocs.append((redir, delim, quoted, op == "<<-"))
        return redir

    def parse_simple(self) -> Simple:
        assigns, words, redirs = [], [], []
        while True:
            tok = self.peek()
            if tok[0] == _IO:
                redirs.append(self.parse_redir())
            elif tok[0] == _WORD:
                self.advance()
                word = tok[1]
                if not words and word.parts and word.parts[0][0] == "L":
                    m = _RE_ASSIGN.match(word.parts[0][1])
                    if m:
                        rest = word.parts[0][1][m.end():]
                        value = _make_word(([("L", rest)] if rest else []) + list(word.parts[1:]))
                        assigns.append((m.group(1), value))
                        continue
                words.append(word)
            else:
                break
        if not (assigns or words or redirs):
            raise self._unexpected(self.peek())
        return Simple(tuple(assigns), tuple(words), tuple(redirs))


def _scan_arith(s: str, i: int) -> int | None:
    """The index of the `))` closing a `$((` opened before `i`, or None (a `$( (...) )`)."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i if s.startswith("))", i) else None
            depth -= 1
        i += 1
    return None


@functools.lru_cache(maxsize=1024)
def parse(source: str) -> Seq:
    """Parse a whole `sh -c` program (raises ShellSyntaxError)."""
    return _Parser(source).parse_program()


# ============================================================================================
# Execution
# ============================================================================================
class _Exit(Exception):
    def __init__(self, code: int):
        self.code = code


class _Fatal(Exception):
    """An error that ends the (sub)shell with status 1 after printing `message`."""


class _LoopControl(Exception):
    def __init__(self, levels: int, is_break: bool):
        self.levels = levels
        self.is_break = is_break


class _RedirError(Exception):
    pass


class _Input:
    """A shell's standard input: commands consume it, `read` takes one line at a time."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes = b""):
        self.data = data
        self.pos = 0

    def take_all(self) -> bytes:
        data = self.data[self.pos:] if self.pos else self.data
        self.pos = len(self.data)
        return data

    def readline(self) -> bytes | None:
        if self.pos >= len(self.data):
            return None
        j = self.data.find(b"\n", self.pos)
        end = len(self.data) if j < 0 else j + 1
        line = self.data[self.pos:end]
        self.pos = end
        return line


class _Ctx:
    """One shell's state: variables, cwd, positional parameters, `$?`."""

    __slots__ = ("state", "vars", "exported", "cwd", "status", "positional", "arg0",
                 "subst_status", "depth", "loops")

    def __init__(self, state: SimState, env: Mapping[str, str] | None = None, cwd: str = "/",
                 arg0: str = SH, positional: list[str] | None = None, depth: int = 0):
        self.state = state
        self.vars: dict[str, str] = dict(_initial_env(state) if env is None else env)
        self.exported: set[str] = set(self.vars)
        self.vars.setdefault("IFS", " \t\n")
        self.cwd = cwd
        self.vars["PWD"] = cwd
        self.status = 0
        self.positional = list(positional or [])
        self.arg0 = arg0
        self.subst_status = 0
        self.depth = depth
        self.loops = 0

    def subshell(self) -> "_Ctx":
        child = object.__new__(_Ctx)
        child.state = self.state
        child.vars = dict(self.vars)
        child.exported = set(self.exported)
        child.cwd = self.cwd
        child.status = self.status
        child.positional = list(self.positional)
        child.arg0 = self.arg0
        child.subst_status = 0
        child.depth = self.depth + 1
        child.loops = 0
        if child.depth > MAX_DEPTH:
            raise _Fatal(f"{SH}: too deeply nested")
        return child


class _Environ(Mapping[str, str]):
    """A command's environment: the shell's exported variables and the command's own assignments
    (`X=1 cmd`), as the shell holds them while the command runs. Taken when the command first
    reads it: most never do, and nothing changes the shell's variables meanwhile (its commands run
    one at a time, a background `&` too)."""

    __slots__ = ("_ctx", "_assigns", "_taken")

    def __init__(self, ctx: "_Ctx", assigns: list[tuple[str, str]]):
        self._ctx, self._assigns = ctx, assigns
        self._taken: dict[str, str] | None = None

    def _env(self) -> dict[str, str]:
        if self._taken is None:
            names, values = self._ctx.exported, self._ctx.vars
            self._taken = {name: values[name] for name in names if name in values}
            self._taken.update(self._assigns)
        return self._taken

    def __getitem__(self, name: str) -> str:
        return self._env()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._env())

    def __len__(self) -> int:
        return len(self._env())


def _initial_env(state: SimState) -> dict[str, str]:
    user = "root" if state.config.get("is_root", True) else "shell"
    return {
        "PATH": _PATH, "HOME": "/", "USER": user, "LOGNAME": user, "SHELL": "/bin/sh",
        "TMPDIR": "/data/local/tmp", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system",
        "ANDROID_STORAGE": "/storage", "EXTERNAL_STORAGE": "/sdcard", "ANDROID_ASSETS": "/system/app",
        "HOSTNAME": "localhost", "TERM": "dumb",
    }


def _run(node: object, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    status = _EXECUTORS[type(node)](node, ctx, inp, out, err)
    ctx.status = status
    return status


def _exec_seq(node: Seq, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    status = 0
    for item in node.items:
        status = _run(item, ctx, inp, out, err)
    return status


def _exec_and_or(node: AndOr, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    status = _run(node.first, ctx, inp, out, err)
    for op, pipeline in node.rest:
        if (status == 0) == (op == "&&"):
            status = _run(pipeline, ctx, inp, out, err)
    return status


def _exec_pipeline(node: Pipeline, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    cmds = node.cmds
    if len(cmds) == 1:
        status = _run(cmds[0], ctx, inp, out, err)
    else:
        data = inp
        status = 0
        for k, cmd in enumerate(cmds):
            sink = out if k == len(cmds) - 1 else bytearray()
            status = _in_subshell(cmd, ctx, data, sink, err)
            data = _Input(bytes(sink))
    if node.negate:
        status = 0 if status else 1
    return status


def _in_subshell(node: object, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    """Run `node` in a copy of `ctx`: `exit`, fatal errors and break/continue stay inside."""
    try:
        return _run(node, ctx.subshell(), inp, out, err)
    except _Exit as exc:
        return exc.code
    except _Fatal as exc:
        err += _enc(f"{exc}\n")
        return 1
    except _LoopControl:
        return 0


def _exec_group(node: Group, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    return _with_redirs(node.redirs, ctx, inp, out, err, lambda i, o, e: (
        _in_subshell(node.body, ctx, i, o, e) if node.subshell else _run(node.body, ctx, i, o, e)))


def _exec_if(node: If, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    def body(i: _Input, o: bytearray, e: bytearray) -> int:
        for cond, then in node.clauses:
            if _run(cond, ctx, i, o, e) == 0:
                return _run(then, ctx, i, o, e)
        return _run(node.else_body, ctx, i, o, e) if node.else_body is not None else 0

    return _with_redirs(node.redirs, ctx, inp, out, err, body)


def _loop_body(body: Seq, ctx: _Ctx, i: _Input, o: bytearray, e: bytearray) -> tuple[int, bool]:
    """Run one iteration; returns (status, stop)."""
    ctx.loops += 1
    limits.check()
    if ctx.loops > MAX_LOOP_ITERATIONS:
        raise _Fatal(f"{SH}: simulator loop limit ({MAX_LOOP_ITERATIONS} iterations) reached")
    try:
        return _run(body, ctx, i, o, e), False
    except _LoopControl as ctl:
        if ctl.levels > 1:
            ctl.levels -= 1
            raise
        return 0, ctl.is_break


def _exec_loop(node: Loop, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    def body(i: _Input, o: bytearray, e: bytearray) -> int:
        status = 0
        while (_run(node.cond, ctx, i, o, e) == 0) != node.until:
            status, stop = _loop_body(node.body, ctx, i, o, e)
            if stop:
                break
        return status

    return _with_redirs(node.redirs, ctx, inp, out, err, body)


def _exec_for(node: For, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    def body(i: _Input, o: bytearray, e: bytearray) -> int:
        values = list(ctx.positional) if node.words is None else _expand_words(node.words, ctx, e)
        status = 0
        for value in values:
            ctx.vars[node.name] = value
            status, stop = _loop_body(node.body, ctx, i, o, e)
            if stop:
                break
        return status

    return _with_redirs(node.redirs, ctx, inp, out, err, body)


def _exec_case(node: Case, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    def body(i: _Input, o: bytearray, e: bytearray) -> int:
        subject = _expand_str(node.word, ctx, e)
        for patterns, then in node.items:
            for pattern in patterns:
                if re.fullmatch(glob_regex(_segments(pattern, ctx, e)), subject, re.S):
                    return _run(then, ctx, i, o, e)
        return 0

    return _with_redirs(node.redirs, ctx, inp, out, err, body)


def _with_redirs(redirs: tuple, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray,
                 body: Callable[[_Input, bytearray, bytearray], int], writer: str = f"{SH}: write error") -> int:
    """Run `body` with `redirs` applied. Output for a file is written when the body ends; if the
    device is full, `writer: No space left on device` goes to stderr and the status is 1, as
    when the command's own write(2) fails."""
    if not redirs:
        return body(inp, out, err)
    try:
        fds, flushes = _open_redirs(redirs, ctx, inp, out, err)
    except _RedirError:
        return 1
    full = False
    try:
        status = body(fds[0], fds[1], fds[2])
    finally:
        full = _flush(ctx.state, flushes)
    if not full:
        return status
    sink = fds[2] if isinstance(fds[2], bytearray) else err
    sink += _enc(f"{writer}: {os.strerror(errno.ENOSPC)}\n")
    return status or 1


def _exec_simple(node: Simple, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    ctx.subst_status = 0
    argv = _expand_words(node.words, ctx, err) if node.words else []
    assigns = [(name, _expand_str(value, ctx, err)) for name, value in node.assigns]
    if not argv:
        for name, value in assigns:
            ctx.vars[name] = value
        status = ctx.subst_status
        if node.redirs:
            status = _with_redirs(node.redirs, ctx, inp, out, err, lambda i, o, e: status)
        return status
    if node.redirs:
        # who reports a failed write: mksh for its builtins, the tool itself (toybox's xwrite) else
        name = argv[0]
        writer = f"{SH}: {name}: write error" if name in _BUILTINS else f"{name.rsplit('/', 1)[-1]}: write"
        return _with_redirs(node.redirs, ctx, inp, out, err,
                            lambda i, o, e: _dispatch(ctx, argv, assigns, i, o, e), writer)
    return _dispatch(ctx, argv, assigns, inp, out, err)


def _dispatch(ctx: _Ctx, argv: list[str], assigns: list, inp: _Input, out: bytearray,
              err: bytearray) -> int:
    builtin = _BUILTINS.get(argv[0])
    if builtin is not None:
        if not assigns:
            return builtin(ctx, argv, inp, out, err)
        saved = {name: ctx.vars.get(name) for name, _ in assigns}
        ctx.vars.update(assigns)
        try:
            return builtin(ctx, argv, inp, out, err)
        finally:
            for name, value in saved.items():
                if value is None:
                    ctx.vars.pop(name, None)
                else:
                    ctx.vars[name] = value
    status = call_command(ctx.state, argv, inp, ctx.cwd, _Environ(ctx, assigns), out, err)
    if status is None:
        err += f"{SH}: {argv[0]}: inaccessible or not found\n".encode("utf-8", "surrogateescape")
        return 127
    return status


def call_command(state: SimState, argv: list[str], stdin: "_Input | bytes", cwd: str,
                 env: Mapping[str, str], out: bytearray, err: bytearray) -> int | None:
    """Run a registry command, writing into `out`/`err`; None if there is no such command."""
    limits.check()
    return registry.call(state, argv, stdin.take_all if isinstance(stdin, _Input) else stdin, cwd, env, out, err)


# --- redirections ---------------------------------------------------------------------------
def _open_redirs(redirs: tuple, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray):
    """Apply redirections left to right: ({fd: input or sink}, files to append to afterwards).

    On failure the message goes to the stderr in effect at that point (so `2>/dev/null` before
    a failing `<` hides it) and _RedirError is raised.
    """
    fds: dict[int, object] = {0: inp, 1: out, 2: err}
    flushes: list[tuple[Path, bytearray]] = []
    try:
        for r in redirs:
            _redirect(r, ctx, fds, flushes, err)
    except _RedirError as exc:
        sink = fds[2]
        if isinstance(sink, bytearray):
            sink += _enc(f"{SH}: {exc}\n")
        _flush(ctx.state, flushes)
        raise
    return fds, flushes


def _redirect(r: Redir, ctx: _Ctx, fds: dict, flushes: list, err: bytearray) -> None:
    op = r.op
    if op in ("<<", "<<-"):
        fds[r.fd] = _Input(_enc(_expand_str(r.body, ctx, err)))
        return
    target = _expand_str(r.target, ctx, err)
    if op in (">&", "<&"):
        if target == "-":
            fds[r.fd] = _Input(b"") if op == "<&" else bytearray()
        elif target.isdigit() and int(target) in fds:
            fds[r.fd] = fds[int(target)]
        elif op == ">&" and not target.isdigit():
            fds[1] = fds[2] = _open_out(ctx, target, False, flushes)
        else:
            raise _RedirError(f"{target}: bad file descriptor")
        return
    special = _DEV_FILES.get(target)
    if op in ("<", "<>"):
        if special is not None:
            fds[r.fd] = fds[special] if isinstance(special, int) else _Input(b"")
            return
        try:
            with open(ctx.state.host_path(target, ctx.cwd), "rb") as fh:
                fds[r.fd] = _Input(fh.read())
        except IsADirectoryError:
            fds[r.fd] = _Input(b"")
        except OSError as exc:
            raise _RedirError(f"can't open {target}: {os.strerror(exc.errno)}") from None
        return
    if special is not None:
        sink = fds[special] if isinstance(special, int) else None
        sink = sink if isinstance(sink, bytearray) else bytearray()
    else:
        sink = _open_out(ctx, target, op in (">>", "&>>"), flushes)
    if r.fd < 0:
        fds[1] = fds[2] = sink
    else:
        fds[r.fd] = sink


_DEV_FILES: dict[str, object] = {"/dev/null": "null", "/dev/stdout": 1, "/dev/stderr": 2,
                                 "/dev/fd/1": 1, "/dev/fd/2": 2, "/dev/stdin": 0, "/dev/fd/0": 0}


def _open_out(ctx: _Ctx, target: str, append: bool, flushes: list) -> bytearray:
    """Create (or truncate) the file now, as mksh does before running the command."""
    state = ctx.state
    norm = state.normalize(target, ctx.cwd)
    try:
        host = state.host_path(norm)
        existed = os.path.lexists(host)
        if target.endswith("/") or os.path.isdir(host):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not existed:
            check_writable_parent(state, norm)
        with open(host, "ab" if append else "wb"):
            pass
    except OSError as exc:
        raise _RedirError(f"can't create {target}: {os.strerror(exc.errno)}") from None
    t = state.clock_epoch
    if not append or not existed:
        os.utime(host, (t, t))
    if not existed:
        os.utime(host.parent, (t, t))
    sink = bytearray()
    flushes.append((host, sink))
    return sink


def _flush(state: SimState, flushes: list) -> bool:
    """Append each sink to its file, within the device's storage; whether one did not fit."""
    t = state.clock_epoch
    full = False
    for host, sink in flushes:
        if sink:
            try:
                storage.write_file(state, host, bytes(sink), append=True)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                full = True
            os.utime(host, (t, t))
    return full


# --- expansion ------------------------------------------------------------------------------
def _expand_words(words: tuple, ctx: _Ctx, err: bytearray) -> list[str]:
    argv: list[str] = []
    for word in words:
        if word.static is not None:
            argv.append(word.static)
        else:
            argv.extend(_expand_fields(word, ctx, err, True))
    limits.check_size(sum(map(len, argv)), "arguments")
    return argv


def _expand_str(word: Word, ctx: _Ctx, err: bytearray) -> str:
    if word.static is not None:
        return word.static
    return " ".join(_expand_fields(word, ctx, err, False))


def _segments(word: Word, ctx: _Ctx, err: bytearray) -> list[tuple[str, bool]]:
    """The expanded text of `word` as (text, glob-active) pieces, without splitting."""
    segs: list[tuple[str, bool]] = []
    for part in word.parts:
        kind = part[0]
        if kind == "L":
            segs.append((part[1], True))
        elif kind == "Q":
            segs.append((part[1], False))
        else:
            segs.append((_eval_part(part, ctx, err), not part[-1]))
    return segs


def _expand_fields(word: Word, ctx: _Ctx, err: bytearray, split: bool) -> list[str]:
    if len(word.parts) == 1:  # one quoted expansion (`"$p"`): its value is the one field
        part = word.parts[0]
        if part[0] != "L" and part[0] != "Q" and part[-1] and not (part[0] == "V" and part[1] == "@"):
            value = _eval_part(part, ctx, err)
            limits.check_size(len(value), "expansion")
            return [value]
    fields: list[list[tuple[str, bool]]] = []
    cur: list[tuple[str, bool]] = []
    has = False
    ifs_re = _ifs_regex(ctx.vars.get("IFS", " \t\n")) if split else None
    for index, part in enumerate(word.parts):
        kind = part[0]
        if kind == "L":
            text = part[1]
            if index == 0 and text.startswith("~") and (len(text) == 1 or text[1] == "/"):
                cur.append((ctx.vars.get("HOME", "/"), False))
                text = text[1:]
            if text:
                cur.append((text, split))
            has = True
            continue
        if kind == "Q":
            cur.append((part[1], False))
            has = True
            continue
        quoted = part[-1]
        if kind == "V" and part[1] == "@" and part[2] is None and quoted:
            for k, param in enumerate(ctx.positional):
                if k:
                    fields.append(cur)
                    cur = []
                cur.append((param, False))
                has = True
            continue
        value = _eval_part(part, ctx, err)
        limits.check_size(len(value), "expansion")
        if quoted:
            cur.append((value, False))
            has = True
        elif ifs_re is None:
            if value:
                cur.append((value, split))
                has = True
        else:
            for k, piece in enumerate(ifs_re.split(value)):
                if k:
                    if has:
                        fields.append(cur)
                    cur = []
                    has = False
                if piece:
                    cur.append((piece, True))
                    has = True
    if has:
        fields.append(cur)
    result: list[str] = []
    for field in fields:
        if split and _globs(field):
            result.extend(_glob(field, ctx))
        else:
            result.append("".join(text for text, _ in field))
    limits.check_size(sum(len(text) for text in result), "expansion")
    return result


@functools.lru_cache(maxsize=32)
def _ifs_regex(ifs: str) -> re.Pattern | None:
    if not ifs:
        return None
    return re.compile("[" + re.escape(ifs) + "]+")


def _eval_part(part: tuple, ctx: _Ctx, err: bytearray) -> str:
    kind = part[0]
    if kind == "V":
        return _param(ctx, part[1], part[2], part[3], err)
    if kind == "C":
        return _command_subst(part[1], ctx, err)
    if kind == "A":
        text = _expand_str(part[1], ctx, err)
        return str(_Arith(text, ctx).evaluate())
    raise AssertionError(kind)


def _get_var(ctx: _Ctx, name: str) -> str | None:
    if name in ctx.vars:
        return ctx.vars[name]
    if len(name) == 1 and not (name.isalpha() or name == "_"):
        if name == "?":
            return str(ctx.status)
        if name == "$":
            return str(SHELL_PID)
        if name == "#":
            return str(len(ctx.positional))
        if name in "@*":
            return " ".join(ctx.positional)
        if name == "0":
            return ctx.arg0
        if name == "!" or name == "-":
            return ""
    if name.isdigit():
        index = int(name)
        if index == 0:
            return ctx.arg0
        return ctx.positional[index - 1] if index <= len(ctx.positional) else None
    return None


def _param(ctx: _Ctx, name: str, op: str | None, arg: Word | None, err: bytearray) -> str:
    value = _get_var(ctx, name)
    if op is None:
        return value or ""
    if op == "len":
        return str(len(value or ""))
    unset = value is None or (op[0] == ":" and value == "")
    if op in (":-", "-"):
        return _expand_str(arg, ctx, err) if unset else value
    if op in (":=", "="):
        if unset:
            value = _expand_str(arg, ctx, err)
            ctx.vars[name] = value
        return value
    if op in (":+", "+"):
        return "" if unset else _expand_str(arg, ctx, err)
    if op in (":?", "?"):
        if unset:
            message = _expand_str(arg, ctx, err) or "parameter null or not set"
            raise _Fatal(f"{SH}: {name}: {message}")
        return value
    value = value or ""
    pattern = re.compile(glob_regex(_segments(arg, ctx, err)), re.S)
    candidates = range(len(value) + 1)
    if op in ("#", "##"):
        order = candidates if op == "#" else reversed(candidates)
        for k in order:
            if pattern.fullmatch(value[:k]):
                return value[k:]
    else:
        order = reversed(candidates) if op == "%" else candidates
        for k in order:
            if pattern.fullmatch(value[k:]):
                return value[:k]
    return value


def _command_subst(program: Seq, ctx: _Ctx, err: bytearray) -> str:
    buf = bytearray()
    ctx.subst_status = _in_subshell(program, ctx, _Input(b""), buf, err)
    return buf.decode("utf-8", "surrogateescape").rstrip("\n")


# --- globbing -------------------------------------------------------------------------------
def _glob(field: list[tuple[str, bool]], ctx: _Ctx) -> list[str]:
    """Pathname expansion of one field against the simulated filesystem (sorted)."""
    literal = "".join(text for text, _ in field)
    components: list[list[tuple[str, bool]]] = [[]]
    for text, active in field:
        pieces = text.split("/")
        for k, piece in enumerate(pieces):
            if k:
                components.append([])
            if piece:
                components[-1].append((piece, active))
    absolute = literal.startswith("/")
    if absolute:
        components = components[1:]
    state = ctx.state
    matches = ["/" if absolute else ""]
    for index, comp in enumerate(components):
        last = index == len(components) - 1
        if not comp:  # a doubled or trailing slash
            matches = [m for m in matches if _host_test(ctx, m, os.path.isdir)]
            matches = [m if m.endswith("/") else m + "/" for m in matches] if last else matches
            continue
        magic = _globs(comp)
        if not magic:
            name = "".join(text for text, _ in comp)
            matches = [_join(m, name) for m in matches]
            continue
        regex = re.compile(glob_regex(comp), re.S)
        dot_ok = comp[0][0].startswith(".")
        found = []
        for prefix in matches:
            try:
                names = os.listdir(state.host_path(prefix or ".", ctx.cwd))
            except OSError:
                continue
            for name in names:
                if (dot_ok or not name.startswith(".")) and regex.fullmatch(name):
                    found.append(_join(prefix, name))
        matches = found
        if not matches:
            break
    matches = [m for m in matches if _host_test(ctx, m, os.path.lexists, follow=False)]
    if not matches:
        return [literal]
    return sorted(matches, key=lambda p: p.encode("utf-8", "surrogateescape"))


def _host_test(ctx: _Ctx, path: str, test: Callable[[Path], bool], follow: bool = True) -> bool:
    """`test` (os.path.isdir, ...) on the host file of `path`; False if it does not resolve."""
    try:
        return test(ctx.state.host_path(path or ".", ctx.cwd, follow))
    except OSError:
        return False


def _join(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return prefix + name if prefix.endswith("/") else prefix + "/" + name


# --- arithmetic -----------------------------------------------------------------------------
_ARITH_TOKEN = re.compile(
    r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)|([A-Za-z_][A-Za-z0-9_]*)|"
    r"(\*\*|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()<>!~&|^?:]))")
_BINARY = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
    "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10, "**": 11,
}


_NUMBER = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|\d+)")
_ARITH_DEPTH = 32  # variables whose values are expressions naming variables, nested at most


def _number(text: str) -> int:
    """A decimal, `0x` hexadecimal or `0` octal literal, wrapped to 32 bits digit by digit (so a
    literal of any length costs its length, never a huge integer)."""
    sign = -1 if text[:1] == "-" else 1
    digits = text.lstrip("+-")
    base = 16 if digits[:2].lower() == "0x" else 8 if len(digits) > 1 and digits[0] == "0" else 10
    value = 0
    for char in digits[2:] if base == 16 else digits:
        digit = int(char, 16)
        if digit >= base:
            raise _Fatal(f"{SH}: {text}: bad number")
        value = (value * base + digit) % 2**32
    return _int32(sign * value)


def _int32(value: int) -> int:
    """`value` as mksh's arithmetic type holds it: 32-bit signed, wrapping around (mksh(1);
    lksh(1), mksh R59c, says lksh alone uses the host's C long)."""
    return (value + 2**31) % 2**32 - 2**31


class _Arith:
    """`$(( ))`: 32-bit signed integer arithmetic with C precedence (no assignment operators)."""

    def __init__(self, text: str, ctx: _Ctx, depth: int = 0):
        self.text = text
        self.ctx = ctx
        self.depth = depth  # how many variables' expressions this one is nested in
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            m = _ARITH_TOKEN.match(stripped, pos)
            if not m or m.end() == pos:
                self._fail("syntax error")
            pos = m.end()
            if m.group(1):
                self.tokens.append(("num", m.group(1)))
            elif m.group(2):
                self.tokens.append(("var", m.group(2)))
            else:
                self.tokens.append(("op", m.group(3)))
        self.pos = 0

    def _fail(self, why: str):
        raise _Fatal(f"{SH}: {self.text.strip()}: {why}")

    def evaluate(self) -> int:
        if not self.tokens:
            return 0
        value = self._expr(0)
        if self.pos != len(self.tokens):
            self._fail(f"unexpected '{self.tokens[self.pos][1]}'")
        return value

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _expr(self, min_prec: int) -> int:
        left = self._unary()
        while True:
            tok = self._peek()
            if tok is None or tok[0] != "op":
                return left
            if tok[1] == "?" and min_prec == 0:
                self.pos += 1
                yes = self._expr(0)
                if self._peek() != ("op", ":"):
                    self._fail("missing ':'")
                self.pos += 1
                no = self._expr(0)
                left = yes if left else no
                continue
            prec = _BINARY.get(tok[1])
            if prec is None or prec < min_prec:
                return left
            self.pos += 1
            right = self._expr(prec if tok[1] == "**" else prec + 1)
            left = _int32(self._apply(tok[1], left, right))

    def _apply(self, op: str, a: int, b: int) -> int:
        if op in ("/", "%"):
            if b == 0:
                self._fail("zero divisor")
            q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            return q if op == "/" else a - q * b
        return {
            "||": lambda: int(bool(a) or bool(b)), "&&": lambda: int(bool(a) and bool(b)),
            "|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b,
            "==": lambda: int(a == b), "!=": lambda: int(a != b), "<": lambda: int(a < b),
            ">": lambda: int(a > b), "<=": lambda: int(a <= b), ">=": lambda: int(a >= b),
            "<<": lambda: a << (b & 31), ">>": lambda: a >> (b & 31), "+": lambda: a + b, "-": lambda: a - b,
            "*": lambda: a * b, "**": lambda: self._power(a, b),
        }[op]()

    def _power(self, a: int, b: int) -> int:
        if b < 0:
            self._fail("exponent less than 0")
        return pow(a, b, 2**32)  # the low 32 bits, without building the whole power

    def _unary(self) -> int:
        tok = self._peek()
        if tok is None:
            self._fail("unexpected end of expression")
        self.pos += 1
        kind, text = tok
        if kind == "num":
            return _number(text)
        if kind == "var":
            raw = (_get_var(self.ctx, text) or "0").strip() or "0"
            if _NUMBER.fullmatch(raw):
                return _number(raw)
            if self.depth >= _ARITH_DEPTH:
                self._fail(f"expression recurses on parameter '{text}'")
            return _Arith(raw, self.ctx, self.depth + 1).evaluate()
        if text == "(":
            value = self._expr(0)
            if self._peek() != ("op", ")"):
                self._fail("missing ')'")
            self.pos += 1
            return value
        if text in ("-", "+", "!", "~"):
            value = self._unary()
            return _int32({"-": -value, "+": value, "!": int(not value), "~": ~value}[text])
        self._fail(f"unexpected '{text}'")
        return 0


# ============================================================================================
# Builtins
# ============================================================================================
Builtin = Callable[[_Ctx, list, _Input, bytearray, bytearray], int]


def _enc(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _bi_true(ctx, argv, inp, out, err) -> int:
    return 0


def _bi_false(ctx, argv, inp, out, err) -> int:
    return 1


def _bi_echo(ctx, argv, inp, out, err) -> int:
    out += echo_output(argv[1:], mksh=True)
    return 0


def _bi_cd(ctx, argv, inp, out, err) -> int:
    args = [a for a in argv[1:] if a not in ("-L", "-P")]
    if len(args) > 1:
        err += _enc(f"{SH}: cd: too many arguments\n")
        return 1
    target = args[0] if args else ctx.vars.get("HOME", "/")
    if target == "-":
        target = ctx.vars.get("OLDPWD", ctx.cwd)
        out += _enc(target + "\n")
    path = ctx.state.normalize(target, ctx.cwd)
    try:
        st = os.stat(ctx.state.host_path(path))
        if not stat_mod.S_ISDIR(st.st_mode):
            raise NotADirectoryError(20, os.strerror(20))
    except OSError as exc:
        err += _enc(f"{SH}: cd: {path}: {os.strerror(exc.errno)}\n")
        return 2
    ctx.vars["OLDPWD"] = ctx.cwd
    ctx.cwd = path
    ctx.vars["PWD"] = path
    return 0


def _bi_pwd(ctx, argv, inp, out, err) -> int:
    out += _enc(ctx.cwd + "\n")
    return 0


def _bi_test(ctx, argv, inp, out, err) -> int:
    status, message = evaluate_test_command(ctx.state, ctx.cwd, argv[0], argv[1:])
    if message is not None:
        err += _enc(f"{SH}: {message}\n")
    return status


def _bi_exit(ctx, argv, inp, out, err) -> int:
    if len(argv) < 2:
        raise _Exit(ctx.status)
    try:
        code = int(argv[1])
    except ValueError:
        err += _enc(f"{SH}: exit: {argv[1]}: bad number\n")
        raise _Exit(1) from None
    raise _Exit(code & 0xFF)


def _bi_export(ctx, argv, inp, out, err) -> int:
    for arg in argv[1:]:
        if arg == "-p":
            continue
        name, eq, value = arg.partition("=")
        if not _RE_NAME.fullmatch(name):
            err += _enc(f"{SH}: export: {arg}: is not an identifier\n")
            return 1
        if eq:
            ctx.vars[name] = value
        ctx.exported.add(name)
    if len(argv) == 1 or argv[1:] == ["-p"]:
        for name in sorted(ctx.exported):
            if name in ctx.vars:
                out += _enc(f"export {name}={_quote_value(ctx.vars[name])}\n")
    return 0


def _quote_value(value: str) -> str:
    return shell_quote(value) if value else "''"


def _bi_unset(ctx, argv, inp, out, err) -> int:
    for name in argv[1:]:
        if name in ("-v", "-f"):
            continue
        ctx.vars.pop(name, None)
        ctx.exported.discard(name)
    return 0


def _bi_eval(ctx, argv, inp, out, err) -> int:
    source = " ".join(argv[1:])
    try:
        program = parse(source)
    except ShellSyntaxError as exc:
        err += _enc(f"{SH}: syntax error: {exc}\n")
        return 1
    return _run(program, ctx, inp, out, err)


def _bi_exec(ctx, argv, inp, out, err) -> int:
    if len(argv) == 1:
        return 0
    raise _Exit(_dispatch(ctx, argv[1:], [], inp, out, err))


def _bi_read(ctx, argv, inp, out, err) -> int:
    raw = "-r" in argv[1:]
    names = [a for a in argv[1:] if a != "-r"] or ["REPLY"]
    chunks: list[str] = []
    status = 1
    while True:
        line = inp.readline()
        if line is None:
            break
        text = line.decode("utf-8", "surrogateescape")
        if text.endswith("\n"):
            text, status = text[:-1], 0
        if not raw and status == 0 and text.endswith("\\"):
            chunks.append(text[:-1])
            status = 1
            continue
        chunks.append(text)
        break
    text = "".join(chunks)
    if not raw:
        text = re.sub(r"\\(.)", r"\1", text)
    regex = _ifs_regex(ctx.vars.get("IFS", " \t\n"))
    if regex is None:
        fields = [text]
    else:
        ifs = ctx.vars.get("IFS", " \t\n")
        fields = regex.split(text.strip(ifs), len(names) - 1) if text.strip(ifs) else []
    for k, name in enumerate(names):
        ctx.vars[name] = fields[k] if k < len(fields) else ""
    return status if not chunks or status == 0 else (0 if text else 1)


def _bi_shift(ctx, argv, inp, out, err) -> int:
    count = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 1
    if count > len(ctx.positional):
        err += _enc(f"{SH}: shift: {count}: bad number\n")
        return 1
    del ctx.positional[:count]
    return 0


def _bi_set(ctx, argv, inp, out, err) -> int:
    args = argv[1:]
    if "--" in args:
        ctx.positional = args[args.index("--") + 1:]
    elif args and not args[0].startswith(("-", "+")):
        ctx.positional = list(args)
    elif not args:
        for name in sorted(ctx.vars):
            out += _enc(f"{name}={_quote_value(ctx.vars[name])}\n")
    return 0


def _bi_break(ctx, argv, inp, out, err) -> int:
    levels = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 1
    raise _LoopControl(max(levels, 1), argv[0] == "break")


def _bi_umask(ctx, argv, inp, out, err) -> int:
    if len(argv) == 1:
        out += b"0077\n"
    return 0


_BUILTINS: dict[str, Builtin] = {
    ":": _bi_true, "true": _bi_true, "false": _bi_false, "echo": _bi_echo, "cd": _bi_cd,
    "pwd": _bi_pwd, "test": _bi_test, "[": _bi_test, "exit": _bi_exit, "export": _bi_export,
    "unset": _bi_unset, "eval": _bi_eval, "exec": _bi_exec, "read": _bi_read,
    "shift": _bi_shift, "set": _bi_set, "break": _bi_break, "continue": _bi_break,
    "wait": _bi_true, "umask": _bi_umask,
}

_EXECUTORS: dict[type, Callable] = {
    Simple: _exec_simple, Pipeline: _exec_pipeline, AndOr: _exec_and_or, Seq: _exec_seq,
    Group: _exec_group, If: _exec_if, Loop: _exec_loop, For: _exec_for, Case: _exec_case,
}


# ============================================================================================
# Entry points
# ============================================================================================
def _execute(source: str, ctx: _Ctx, inp: _Input, out: bytearray, err: bytearray) -> int:
    """Parse and run `source` in `ctx` as a (sub)shell; returns its exit status."""
    try:
        program = parse(source)
    except ShellSyntaxError as exc:
        program = exc.done
        error: ShellSyntaxError | None = exc
    else:
        error = None
    try:
        status = _run(program, ctx, inp, out, err)
    except _Exit as exc:
        return exc.code
    except _Fatal as exc:
        err += _enc(str(exc) + "\n")
        return 1
    except _LoopControl:
        status = 0
    if error is not None:
        err += _enc(f"{SH}: syntax error: {error}\n")
        return 1
    return status


def run(state: SimState, command: str, stdin: bytes = b"") -> ShellResult:
    """Run `command` as `/system/bin/sh -c command` on the simulated device."""
    out, err, status = run_bytes(state, command, stdin)
    return ShellResult(out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), status)


def run_bytes(state: SimState, command: str, stdin: bytes = b"") -> tuple[bytearray, bytearray, int]:
    """`run`, with stdout and stderr as the bytes the command wrote (binary-safe): the buffers
    it wrote them into, not a copy (`run` decodes them; a caller keeping them copies once)."""
    out, err = bytearray(), bytearray()
    status = run_into(state, command, stdin, out, err)
    return out, err, status


def run_into(state: SimState, command: str, stdin: bytes, out: bytearray, err: bytearray,
             env: dict[str, str] | None = None) -> int:
    """Run `command` writing into `out`/`err` (any bytearray, e.g. a stream's sink); a command
    stopped by a limit (see `taskkit.sim.limits`) ends with its message and status."""
    ctx = _Ctx(state, env=env) if env is not None else _Ctx(state)
    try:
        with audit_events.kept_real_paths():  # (a command line resolves the same paths again and again)
            return _execute(command, ctx, _Input(stdin), out, err) & 0xFF
    except limits.LimitExceeded as exc:
        err += _enc(f"{SH}: {exc}\n")
        return exc.status


@command("sh", "mksh")
def sh_command(inv: Invocation) -> int:
    """`sh -c CMD [ARG0 [ARGS...]]`, `sh FILE [ARGS...]`, or `sh` reading its script from stdin."""
    args = inv.args
    depth = getattr(_NESTING, "depth", 0) + 1
    if depth > MAX_DEPTH:
        return inv.fail(f"{SH}: too deeply nested")
    while args and args[0] in ("-e", "-x", "-u", "+e", "+x", "-s"):
        args = args[1:]
    if args and args[0] == "-c":
        if len(args) < 2:
            return inv.fail(f"{SH}: -c: option requires an argument")
        source, arg0, positional = args[1], (args[2] if len(args) > 2 else SH), args[3:]
        stdin = inv.stdin
    elif args:
        try:
            source = inv.host_path(args[0]).read_text("utf-8", "surrogateescape")
        except OSError as exc:
            return inv.fail(f"{SH}: {args[0]}: {os.strerror(exc.errno or 2)}", 127)
        arg0, positional, stdin = args[0], args[1:], inv.stdin
    else:
        source, arg0, positional, stdin = inv.stdin.decode("utf-8", "surrogateescape"), SH, [], b""
    ctx = _Ctx(inv.state, env=inv.env, cwd=inv.cwd, arg0=arg0, positional=positional, depth=depth)
    _NESTING.depth = depth
    try:
        return _execute(source, ctx, _Input(stdin), inv.stdout, inv.stderr)
    finally:
        _NESTING.depth = depth - 1


_NESTING = threading.local()
_SU_USERS = {"root": 0, "0": 0, "shell": 2000, "2000": 2000}


@command("su")
def su_command(inv: Invocation) -> int:
    """`su [WHO [COMMAND...]]` of userdebug builds: run COMMAND (or a shell) as WHO (root)."""
    args = inv.args
    uid = 0
    if args:
        who = args[0]
        if who.startswith("-"):
            return inv.fail(f"su: invalid uid/gid '{who}'")
        if who in _SU_USERS:
            uid = _SU_USERS[who]
        elif who.isdigit():
            uid = int(who)
        else:
            return inv.fail(f"su: invalid uid/gid '{who}'")
        args = args[1:]
    state = inv.state
    saved = state.config.get("is_root", True)
    state.config["is_root"] = uid == 0
    env = dict(inv.env)
    env["USER"] = env["LOGNAME"] = "root" if uid == 0 else "shell"
    try:
        argv = args if args else ["sh"]
        status = call_command(state, argv, inv.stdin, inv.cwd, env, inv.stdout, inv.stderr)
        if status is None:
            return inv.fail(f"su: failed to exec {argv[0]}: No such file or directory")
        return status
    finally:
        state.config["is_root"] = saved
