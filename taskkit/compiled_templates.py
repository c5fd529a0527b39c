"""Jinja templates compiled once per machine: their code kept in taskkit's user cache folder
(taskkit/user_cache.py) for the next process, never stale (see `TemplateCache`)."""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
import stat
import sys
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket

from taskkit import user_cache


class TemplateCache(jinja2.BytecodeCache):
    """Jinja's compiled templates, one file per source in the user cache's `templates` folder, so a template is
    compiled once per machine instead of once per process.

    An entry is found by the source and by what else decides its code (`_compiler_key`: the
    environment's options, filters and tests, jinja's and Python's versions) and is checked
    against the source's checksum (jinja's own), so it is never stale; it is written through a
    rename (`write`), so concurrent processes read a whole entry or none. An entry that cannot be
    read or written is compiled instead. An entry is code this process runs: it is read only from
    a folder this user owns and no one else may write to (as jinja's own FileSystemBytecodeCache
    keeps its folder), made so when new.
    """

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> Bucket:
        return super().get_bucket(environment, f"{_compiler_key(environment)}|{name}", filename, source)

    def load_bytecode(self, bucket: Bucket) -> None:
        folder = _private_folder()
        try:
            if folder is None:
                raise OSError("no private folder")
            bucket.bytecode_from_string((folder / _name(bucket)).read_bytes())
        except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        folder = _private_folder()
        if folder is not None:
            user_cache.write(folder / _name(bucket), bucket.bytecode_to_string())


def _name(bucket: Bucket) -> str:
    return f"{bucket.key}.jinja"


def _private_folder() -> Path | None:
    """The entries' folder, made (mode 700) if missing; None unless it is a folder of this user's
    that neither group nor others may write to."""
    folder = user_cache.folder() / "templates"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        found = os.lstat(folder)
    except OSError:
        return None
    private = stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & 0o022
    return folder if private else None


def _compiler_key(env: jinja2.Environment) -> str:
    """Everything but the source that the code jinja compiles a template to depends on: the
    environment's class (a sandbox intercepts operators in the code), its syntax and output
    options, its finalize, its filters and tests (checked and wired in at compile time), and
    jinja's and Python's versions."""
    options = (type(env), env.block_start_string, env.block_end_string, env.variable_start_string,
               env.variable_end_string, env.comment_start_string, env.comment_end_string, env.line_statement_prefix,
               env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks, env.newline_sequence,
               env.keep_trailing_newline, env.optimized, env.is_async, env.autoescape, env.finalize,
               tuple(sorted(env.extensions)), tuple(sorted(getattr(env, "intercepted_binops", ()))),
               tuple(sorted(getattr(env, "intercepted_unops", ()))))
    return _digest(options, tuple(env.filters.items()), tuple(env.tests.items()))


@functools.lru_cache(maxsize=64)
def _digest(options: tuple[Any, ...], filters: tuple[tuple[str, Any], ...], tests: tuple[tuple[str, Any], ...]) -> str:
    """`_compiler_key`'s digest, the same in every process: a class or function by its module,
    qualified name and what jinja passes it (computed once per environment as it stands)."""
    def named(value: Any) -> Any:
        if not callable(value):
            return value
        name = getattr(value, "__qualname__", type(value).__qualname__)
        return f"{getattr(value, '__module__', '')}.{name}/{getattr(value, 'jinja_pass_arg', '')}"

    parts = [jinja2.__version__, sys.version_info[:2], [named(option) for option in options],
             sorted((name, named(f)) for name, f in filters), sorted((name, named(f)) for name, f in tests)]
    return hashlib.sha1(repr(parts).encode()).hexdigest()


TEMPLATES = TemplateCache()


def compiled(environment: jinja2.Environment, source: str) -> jinja2.Template:
    """`environment.from_string(source)`, with its code from `TEMPLATES` when a process compiled it before."""
    bucket = TEMPLATES.get_bucket(environment, source, None, source)
    if bucket.code is None:
        bucket.code = environment.compile(source)
        TEMPLATES.set_bucket(bucket)
    return environment.template_class.from_code(environment, bucket.code, environment.make_globals(None))
