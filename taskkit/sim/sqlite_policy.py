"""Which SQL functions, virtual-table modules and pragmas a simulated device's SQLite may use.

An allowlist, modelled on what Android's own SQLite offers apps and its `sqlite3` tool
(AOSP external/sqlite, dist/Android.bp: SQLITE_ENABLE_FTS3, _FTS4, _DBSTAT_VTAB; no FTS5, no
R-Tree, no SQLITE_ENABLE_FTS3_TOKENIZER, no extension loading), plus SQLite's core, date/time,
math, window and JSON functions. The host's library may be built with more — Debian's has
`fts3_tokenizer()` (which returns and accepts raw code pointers: a memory-corruption primitive),
FTS5, R-Tree, `sqlite_stmt`, and could have `sqlite_dbpage` (raw page writes) — and everything it
has that is not listed here is denied.

Only names the host library actually has are denied (`library_functions` / `library_modules` /
`library_pragmas`): an unknown name keeps SQLite's own answer (`no such function: x`, `no such
module: x`, an unknown pragma doing nothing), as on a phone.
"""
from __future__ import annotations

import functools
import sqlite3

# One string or blob at most this long (SQLITE_LIMIT_LENGTH; Android's default is 1e9): bounds
# `zeroblob(N)`, `randomblob(N)`, `printf('%.*c', N, ...)` (checked before the call: see
# sqlite_functions) and `group_concat` over a runaway CTE.
MAX_LENGTH = 64 * 1024 * 1024
# SQLite's heap in one host process at most (PRAGMA hard_heap_limit, process-wide): a query that
# sorts or materializes without end fails with "out of memory" instead of exhausting the host.
PROCESS_HEAP_LIMIT = 2 * 1024 ** 3

FUNCTIONS = frozenset("""
abs avg changes char coalesce count format glob group_concat hex ifnull iif instr last_insert_rowid
length like likelihood likely lower ltrim max min nullif printf quote random randomblob replace round
rtrim sign soundex substr substring sum total total_changes trim typeof unicode unlikely upper zeroblob
sqlite_version sqlite_source_id sqlite_compileoption_get sqlite_compileoption_used
date time datetime julianday strftime unixepoch current_date current_time current_timestamp
acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log log10 log2 mod pi
pow power radians sin sinh sqrt tan tanh trunc
row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
json json_array json_array_length json_extract json_insert json_object json_patch json_quote json_remove
json_replace json_set json_type json_valid json_group_array json_group_object -> ->>
match snippet offsets matchinfo optimize
""".split())
MODULES = frozenset({"fts3", "fts4", "fts4aux", "fts3tokenize", "dbstat", "json_each", "json_tree"})
# Pragmas that only read, or whose argument names a table or index: any argument (but the
# last four, which only read: max_page_count is the device's storage quota, see sqlite_sandbox).
READ_PRAGMAS = frozenset("""
collation_list compile_options data_version database_list foreign_key_check foreign_key_list
freelist_count function_list index_info index_list index_xinfo integrity_check module_list page_count
pragma_list quick_check table_info table_list table_xinfo schema_version trusted_schema writable_schema
max_page_count
""".split())
# Pragmas a connection may also set: each changes only that connection or its own database file.
SETTABLE_PRAGMAS = frozenset("""
analysis_limit application_id auto_vacuum automatic_index busy_timeout cache_size cache_spill
case_sensitive_like cell_size_check checkpoint_fullfsync count_changes default_cache_size
defer_foreign_keys empty_result_callbacks encoding foreign_keys full_column_names fullfsync
ignore_check_constraints incremental_vacuum journal_mode journal_size_limit legacy_alter_table
locking_mode optimize page_size query_only read_uncommitted recursive_triggers
reverse_unordered_selects secure_delete short_column_names shrink_memory synchronous temp_store
user_version wal_autocheckpoint wal_checkpoint
""".split())


@functools.lru_cache(maxsize=None)
def _library_names(pragma: str) -> frozenset[str]:
    """The names one of the library's listing pragmas gives, lower-cased (read once)."""
    conn = sqlite3.connect(":memory:")
    try:
        return frozenset(str(row[0]).lower() for row in conn.execute(f"PRAGMA {pragma}"))
    finally:
        conn.close()


def library_functions() -> frozenset[str]:
    return _library_names("function_list")


def library_modules() -> frozenset[str]:
    return _library_names("module_list") | {"sqlite_dbpage"}


def library_pragmas() -> frozenset[str]:
    return _library_names("pragma_list") | {"temp_store_directory", "data_store_directory"}


def function_allowed(name: str) -> bool:
    """May SQL call this function? (Unknown names are left to SQLite: `no such function`.)"""
    name = name.lower()
    return name in FUNCTIONS or name not in library_functions()


def module_allowed(name: str) -> bool:
    """May SQL create (or read, for an eponymous one) a virtual table of this module?

    Also asked for every table SQL reads: an ordinary table's name is not a module and passes.
    """
    name = name.lower()
    return name in MODULES or name not in library_modules()


def pragma_allowed(name: str, argument: object) -> bool:
    """May SQL run `PRAGMA name` (argument None) or `PRAGMA name = argument` / `name(argument)`?"""
    name = name.lower()
    if name in SETTABLE_PRAGMAS:
        return True
    if name in READ_PRAGMAS:
        return argument is None or name not in ("schema_version", "trusted_schema", "writable_schema",
                                                "max_page_count")
    return name not in library_pragmas()


_heap_capped = False  # the limit is the process's: set once, by the first connection


def cap_process_heap(conn: sqlite3.Connection) -> None:
    """Set SQLite's process-wide hard heap limit to PROCESS_HEAP_LIMIT unless a lower one is set
    (once per process: device SQL cannot change it, the pragma being denied)."""
    global _heap_capped
    if _heap_capped:
        return
    (current,) = conn.execute("PRAGMA hard_heap_limit").fetchone()
    if current == 0 or current > PROCESS_HEAP_LIMIT:
        conn.execute(f"PRAGMA hard_heap_limit = {PROCESS_HEAP_LIMIT}")
    _heap_capped = True
