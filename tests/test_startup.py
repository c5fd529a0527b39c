"""Start-up pays for what a run uses (issue #21 item 5): specs are listed by name and compiled on
first use, their parses cached by content (never stale), suggestions computed only for an error,
a worker compiles only the tasks it runs, an instance draws its params when first asked — while
a bad spec is still one `file:line:col: field: message` line and exit 2 whenever it is used."""
from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from taskkit import loading, registry, run, specs, suite, task_protos
from taskkit.rng import TaskRng
from taskkit.specs import cache, loader
from taskkit.task import TaskEval
from tests.specs.test_loader import WIFI as GOOD

BAD_APP = GOOD.replace('"settings"', '"setings"')
INCLUDES = '''
name: "{name}"
goal: "Both."
include {{ label: "one" task: "{first}" }}
include {{ label: "two" task: "{second}" }}
'''


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The built-ins registered, and whatever the test registers gone after it; a private cache."""
    loading.load_builtin()
    monkeypatch.setattr(registry, "_TASKS", dict(registry._TASKS))
    monkeypatch.setenv("TASKKIT_CACHE_DIR", str(tmp_path / "cache"))


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.textproto"
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def count_calls(monkeypatch: pytest.MonkeyPatch, owner: Any, attribute: str) -> list[int]:
    """Wrap `owner.attribute` to count its calls; the list's length is the count."""
    calls: list[int] = []
    original = getattr(owner, attribute)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, attribute, counted)
    return calls


def compiled_specs() -> list[str]:
    entries = [registry.peek(name) for name in registry.names()]
    return sorted(entry.name for entry in entries
                  if str(entry.source).endswith(".textproto") and not isinstance(entry, registry.Deferred))


def in_fresh_process(code: str, tmp_path: Path, report: str | None = None, cache: Path | None = None) -> dict[str, Any]:
    """Run `code` in a new interpreter (with `cache` as its TASKKIT_CACHE_DIR if given), then
    `report` (by default REPORT, on the specs compiled): it prints one JSON line, returned here."""
    env = dict(os.environ, **({"TASKKIT_CACHE_DIR": str(cache)} if cache else {}))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code) + (REPORT if report is None else report)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


REPORT = """
import json, sys
from taskkit import registry
entries = [registry.peek(name) for name in registry.names()]
compiled = sorted(e.name for e in entries if str(e.source).endswith(".textproto")
                  and not isinstance(e, registry.Deferred))
print(json.dumps({"compiled": compiled, "compiler": "taskkit.specs.compiler" in sys.modules,
                  "listed": sum(str(e.source).endswith(".textproto") for e in entries)}))
"""


@pytest.mark.parametrize("task, compiled", [("SimpleSmsSend", []), ("ExpenseAddSingleSpec", ["ExpenseAddSingleSpec"])])
def test_a_one_task_process_compiles_only_the_spec_it_uses(task: str, compiled: list[str], tmp_path: Path) -> None:
    for path in sorted(Path(task_protos.__file__).parent.glob("*.textproto")):  # parsed before, as by an earlier run
        loader.parse(path)
    found = in_fresh_process(f"""
        import contextlib, io
        from taskkit import run
        with contextlib.redirect_stdout(io.StringIO()):
            assert run.run(["taskkit.run", "--show_instance", "{task}"]) == 0
        """, tmp_path)
    assert found["compiled"] == compiled
    assert found["listed"] >= 40  # every built-in spec is listed, by name
    assert found["compiler"] is bool(compiled)  # a Python task's run never loads the spec compiler


def test_a_worker_compiles_only_the_tasks_it_runs(tmp_path: Path) -> None:
    found = in_fresh_process("""
        from taskkit import pool
        setup = pool.WorkerSetup((), (), False, "oracle", {}, 30, None, False)
        worker = pool.Worker(setup, "sim", ("127.0.0.1", 5037))
        try:
            row = worker.run(("ExpenseAddSingleSpec", 0, None))
            assert row["score"] == 1.0, row
        finally:
            worker.close()
        """, tmp_path)
    assert found["compiled"] == ["ExpenseAddSingleSpec"]


def test_listing_a_folder_again_parses_nothing_and_a_changed_file_is_read_again(fresh_registry: None,
                                                                                   tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "specs"
    write(folder, "one", GOOD.format(name="StartupOne"))
    two = write(folder, "two", GOOD.format(name="StartupTwo"))
    parses = count_calls(monkeypatch, loader, "_parse_text")
    assert specs.defer_dir(folder) == [] and len(parses) == 2
    assert {"StartupOne", "StartupTwo"} <= set(registry.names())
    assert isinstance(registry.peek("StartupOne"), registry.Deferred)

    monkeypatch.setattr(registry, "_TASKS", {})
    assert specs.defer_dir(folder) == [] and len(parses) == 2  # both from the cache
    assert registry.get("StartupOne").name == "StartupOne" and len(parses) == 2  # compiling reuses the parse

    two.write_text(two.read_text().replace("StartupTwo", "StartupRenamed"))  # never a stale name
    monkeypatch.setattr(registry, "_TASKS", {})
    assert specs.defer_dir(folder) == [] and len(parses) == 3
    assert sorted(registry.names()) == ["StartupOne", "StartupRenamed"]

    cache._salt.cache_clear()  # another taskkit or protobuf version, or another schema: a new key
    monkeypatch.setattr(cache, "_salt", lambda: b"another version|")
    monkeypatch.setattr(registry, "_TASKS", {})
    assert specs.defer_dir(folder) == [] and len(parses) == 5


def test_a_cache_folder_that_cannot_be_written_costs_a_parse_not_an_error(fresh_registry: None, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a_file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("TASKKIT_CACHE_DIR", str(blocked))
    folder = tmp_path / "specs"
    write(folder, "one", GOOD.format(name="StartupUncached"))
    parses = count_calls(monkeypatch, loader, "_parse_text")
    for _ in range(2):
        monkeypatch.setattr(registry, "_TASKS", {})
        assert specs.defer_dir(folder) == []
    assert len(parses) == 2 and registry.get("StartupUncached").name == "StartupUncached"


def test_a_damaged_cache_entry_is_parsed_again(fresh_registry: None, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "specs", "one", GOOD.format(name="StartupDamaged"))
    loader.parse(path)
    entry = cache.cache_dir() / cache.key(path.read_bytes())
    entry.write_bytes(b"\xff\xff not a message")
    parses = count_calls(monkeypatch, loader, "_parse_text")
    assert loader.parse(path).spec.name == "StartupDamaged" and len(parses) == 1


def test_loading_and_compiling_specs_computes_no_suggestion(fresh_registry: None, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "specs"
    write(folder, "a", INCLUDES.format(name="StartupBoth", first="StartupWifi", second="SystemWifiTurnOn"))
    write(folder, "b", GOOD.format(name="StartupWifi"))
    suggestions = count_calls(monkeypatch, registry.difflib, "get_close_matches")
    assert specs.defer_dir(folder) == []
    classes, errors = loading.resolve(["StartupBoth", "StartupWifi"])
    assert errors == [] and [cls.name for cls in classes] == ["StartupBoth", "StartupWifi"]
    assert suggestions == []
    with pytest.raises(registry.TaskLoadError, match="did you mean StartupWifi"):
        registry.get("StartupWifj")
    assert len(suggestions) == 1


def test_a_listed_spec_that_does_not_compile_fails_when_used_with_its_line(fresh_registry: None, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "specs"
    bad = write(folder, "bad", BAD_APP.format(name="StartupBad"))
    write(folder, "good", GOOD.format(name="StartupGood"))
    assert specs.defer_dir(folder) == []  # listing finds no fault: validation comes with use
    assert registry.get("StartupGood").name == "StartupGood"
    eager = [str(error) for error in specs.load_dir(folder, register=False).errors]  # as loading all at once says it
    assert len(eager) == 1 and eager[0].startswith(f"{bad}:2:1: apps[0]: unknown app 'setings'")
    compiles = count_calls(monkeypatch, loader, "_compile")
    for _ in range(2):  # the failure is kept, not compiled again
        with pytest.raises(specs.SpecError) as caught:
            registry.get("StartupBad")
        assert str(caught.value) == eager[0]
    assert len(compiles) == 1
    classes, errors = loading.resolve(None)  # --list_tasks: every task, every bad spec's line
    assert errors == eager
    assert "StartupGood" in [cls.name for cls in classes]


@pytest.mark.parametrize("argv, code", [(["--tasks", "StartupGood", "--show_instance", "StartupGood"], 0),
                                        (["--list_tasks"], 2), (["--show_instance", "StartupBad"], 2),
                                        (["--tasks", "StartupBad", "--list_tasks"], 2)])
def test_the_cli_reports_a_bad_spec_only_where_it_is_used(argv: list[str], code: int, fresh_registry: None,
                                                          tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "specs"
    bad = write(folder, "bad", BAD_APP.format(name="StartupBad"))
    write(folder, "good", GOOD.format(name="StartupGood"))
    assert run.run(["taskkit.run", "--spec_dir", str(folder), *argv]) == code
    err = capsys.readouterr().err
    if code == 2:  # the spec's own line alone, as every bad spec is reported
        assert err.strip().splitlines() == [err.strip()] and err.startswith(f"{bad}:2:1: apps[0]: unknown app"), err


def test_include_cycles_among_listed_specs_are_errors(fresh_registry: None, tmp_path: Path) -> None:
    folder = tmp_path / "specs"
    first = write(folder, "a", INCLUDES.format(name="StartupA", first="StartupB", second="StartupB"))
    second = write(folder, "b", INCLUDES.format(name="StartupB", first="StartupA", second="StartupA"))
    assert specs.defer_dir(folder) == []
    classes, errors = loading.resolve(["StartupA", "StartupB"])
    assert classes == []
    assert sorted(errors) == sorted(str(error) for error in specs.load_dir(folder, register=False).errors)  # as eager
    assert errors == [
        f"{first}:3:24: include[0].task: task 'StartupB' is defined by a spec that failed to load ({second.resolve()})",
        f"{second}:3:24: include[0].task: include cycle: StartupA -> StartupB -> StartupA",
    ]


def test_listing_reports_a_name_given_twice_or_taken(fresh_registry: None, tmp_path: Path) -> None:
    folder = tmp_path / "specs"
    write(folder, "a", GOOD.format(name="StartupTwice"))
    twice = write(folder, "b", GOOD.format(name="StartupTwice"))
    taken = write(folder, "c", GOOD.format(name="SystemWifiTurnOn"))
    errors = [str(error) for error in specs.defer_dir(folder)]
    assert errors == [f"{twice}:1:1: name: task name 'StartupTwice' is already defined in {folder / 'a.textproto'}",
                      f"{taken}:1:1: name: task name 'SystemWifiTurnOn' is already defined in "
                      f"{registry.peek('SystemWifiTurnOn').source}"]


def test_a_family_is_chosen_without_compiling_a_spec(fresh_registry: None) -> None:
    from taskkit import families

    before = compiled_specs()
    chosen = families.tasks_in("information_retrieval")
    assert compiled_specs() == before
    assert chosen and all("information_retrieval" in registry.get(name).tags for name in chosen)


class _Counted(TaskEval, register=False):
    """A task counting its draws."""

    name = "StartupCounted"
    template = "Count."
    app_names = ("settings",)
    complexity = 1
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    draws: list[int] = []

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        cls.draws.append(1)
        return {"n": rng.randint(0, 9)}

    def is_successful(self, env: Any) -> float:
        return 0.0


def test_an_instance_draws_its_params_when_first_asked_and_once() -> None:
    _Counted.draws.clear()
    instances = [suite.instantiate(_Counted, 30, index) for index in range(3)]
    assert _Counted.draws == [] and [i.instance_id for i in instances] == [f"StartupCounted_{i}" for i in range(3)]
    first = instances[0]
    assert first.params == first.create().params == first.create().params
    assert len(_Counted.draws) == 1


def test_the_seeded_faker_is_made_on_first_use_and_the_sequences_stay_apart() -> None:
    untouched, touched = TaskRng(7), TaskRng(7)
    assert touched._faker is None
    name = touched.faker.name()
    assert touched.random() == untouched.random()  # using Faker never moves the random sequence
    assert TaskRng(7).faker.name() == name  # and Faker's own sequence is the seed's


HEAVY = ("pandas", "numpy", "pyarrow")


@pytest.mark.parametrize("module, allowed", [("taskkit.run", ()), ("taskkit.gym", ("numpy",))])
def test_importing_taskkit_loads_no_dataframe_library(module: str, allowed: tuple[str, ...], tmp_path: Path) -> None:
    """Issue #37: pandas, numpy and pyarrow (which sqlite-utils imports wherever they are installed)
    never load for a run or the gym; the gym's numpy is Gymnasium's own dependency."""
    code = f"import json, sys, {module}; print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    loaded = set(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert sorted(loaded & set(HEAVY)) == sorted(allowed)
    assert "sqlite_utils" not in loaded


def test_a_run_loads_no_network_or_package_metadata_library(tmp_path: Path) -> None:
    """A run's start (its imports and the built-in tasks) needs no http, ssl, email or
    importlib.metadata (xml.sax.saxutils and the version lookup loaded them: ~60 ms CPU)."""
    code = ("import json, sys, taskkit.run; from taskkit import loading; loading.load_builtin(); "
            "print(json.dumps(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    loaded = set(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert sorted(loaded & {"ssl", "http.client", "email.message", "urllib.request", "importlib.metadata"}) == []


IDLE_RSS_LIMIT = 60 << 20  # issue #37: one served device, idle


def test_a_served_device_at_idle_holds_no_imaging_or_dataframe_library(tmp_path: Path) -> None:
    """`python -m taskkit.sim serve` at idle maps no native module of Pillow (loaded by the first
    screenshot), pandas, numpy or pyarrow, and stays under 60 MB resident."""
    proc = subprocess.Popen([sys.executable, "-m", "taskkit.sim", "serve", "--port", "0", "--state",
                             str(tmp_path / "device")], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdout is not None and proc.stdout.readline().startswith("serving simulated device")
        maps = Path(f"/proc/{proc.pid}/maps").read_text()
        status = Path(f"/proc/{proc.pid}/status").read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    mapped = {line.split()[-1] for line in maps.splitlines() if line.endswith(".so") or ".so." in line}
    heavy = sorted(path for path in mapped for package in ("PIL", *HEAVY) if f"/{package}/" in path
                   or f"/{package}.libs/" in path)
    assert heavy == []
    rss_kb = int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1])
    assert rss_kb * 1024 <= IDLE_RSS_LIMIT


# --------------------------------------------------------------------------- the built-in tasks' index
LISTING = """
import json
from taskkit import loading, registry
loading.load_builtin()
def entries():
    return [[e.name, str(e.source), list(e.tags)] for e in map(registry.peek, registry.names())]
listed, deferred = entries(), sum(isinstance(registry.peek(name), registry.Deferred) for name in registry.names())
loading.resolve(None)  # every class built, as --list_tasks does
print(json.dumps({"listed": listed, "deferred": deferred, "built": entries()}))
"""


@pytest.fixture(scope="module")
def indexed_cache(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A cache folder holding the index a fresh process wrote when it listed the built-ins the long
    way (importing every tasks module, reading every spec), and what it listed, then built."""
    folder = tmp_path_factory.mktemp("cache")
    eager = in_fresh_process(LISTING, folder, "", cache=folder)
    assert list(folder.glob("builtin-tasks-*.json")), "the listing kept no index"
    return folder, eager


def test_the_index_lists_the_built_ins_as_importing_them_all_does(indexed_cache: tuple[Path, dict[str, Any]],
                                                                  tmp_path: Path) -> None:
    """Issue #37: from the index, every built-in task is listed by name, source and tags, none
    built; built, every class is what importing them all gives (`--list_tasks`: the same)."""
    folder, eager = indexed_cache
    assert len(eager["listed"]) >= 300 and eager["deferred"] < 100  # the long way: the Python tasks built
    lazy = in_fresh_process(LISTING, tmp_path, "", cache=folder)
    assert lazy == {**eager, "deferred": len(eager["listed"])}


ONE_TASK_RUN = """
import contextlib, io, json, sys
from taskkit import connect, registry, run
at_device = []
opened = connect.sim_device
def spied(*args, **kwargs):
    at_device.extend(sorted(m for m in sys.modules if m.startswith("taskkit.sim.gui")))
    return opened(*args, **kwargs)
connect.sim_device = spied
with contextlib.redirect_stdout(io.StringIO()):
    assert run.run(["taskkit.run", "--tasks", "SimpleSmsSend", "--n_task_combinations", "1"]) == 0
built = [name for name in registry.names() if not isinstance(registry.peek(name), registry.Deferred)]
print(json.dumps({"gui_at_device": at_device, "built": sorted({registry.peek(name).source for name in built}),
                  "loaded": sorted({m.split(".")[0] if m.startswith("google") else ".".join(m.split(".")[:3])
                                    for m in sys.modules if m.startswith(("google", "taskkit.apps.", "taskkit.ray_pool",
                                                                         "taskkit.report_html"))})}))
"""


def test_a_one_task_run_builds_and_imports_only_what_its_task_needs(indexed_cache: tuple[Path, dict[str, Any]],
                                                                    tmp_path: Path) -> None:
    """Issue #37 item 4: a run of SimpleSmsSend builds the tasks of its own module alone (no SPA or
    AndroidLens class, no spec listing: protobuf never loads), and nothing imports the simulated
    GUI (taskkit.sim.gui, its translations) before the device opens it."""
    found = in_fresh_process(ONE_TASK_RUN, tmp_path, "", cache=indexed_cache[0])
    assert found["gui_at_device"] == []
    assert found["built"] == ["taskkit.apps.sms.tasks"]
    loaded = found["loaded"]
    assert "google" not in loaded and "taskkit.ray_pool" not in loaded and "taskkit.report_html" not in loaded
    assert not [m for m in loaded if m.startswith(("taskkit.apps.spa", "taskkit.apps.androidlens"))]


def test_the_index_holds_for_the_sources_it_was_made_from_alone(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed, added or removed source file is another fingerprint: the index is never stale;
    a damaged one is as none."""
    from taskkit import builtin_index

    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "tasks.py").write_text("A = 1\n")
    monkeypatch.setenv("TASKKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(builtin_index, "_roots", lambda: (str(sources),))
    fresh = functools.lru_cache(maxsize=1)(builtin_index.fingerprint.__wrapped__)  # its own cache, gone after
    monkeypatch.setattr(builtin_index, "fingerprint", fresh)
    index = [{"name": "StartupIndexed", "source": "m", "tags": [], "module": "m", "attribute": "StartupIndexed"}]

    def kept() -> Any:
        builtin_index.fingerprint.cache_clear()
        return builtin_index.cached()

    assert kept() is None
    builtin_index.remember(index)
    assert kept() == index
    changes = (lambda: (sources / "tasks.py").write_text("A = 22\n"), lambda: (sources / "new.json").write_text("{}"),
               lambda: (sources / "new.json").unlink())
    for change in changes:
        change()
        assert kept() is None
        builtin_index.remember(index)
        assert kept() == index
    builtin_index.path().write_text('{"fingerprint": ')
    assert kept() is None


def test_a_listed_task_replaced_before_it_is_built_stays_replaced(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A built-in listed from the index and replaced (--replace_tasks) keeps its replacement when
    its module is imported later (for another task of it), as when the built-ins were imported
    first; a name listed from two sources is an error, as for classes."""
    from taskkit import builtin_index

    module = "startup_listed_tasks"
    (tmp_path / f"{module}.py").write_text(textwrap.dedent('''
        from taskkit.task import TaskEval

        class StartupListed(TaskEval):
            template = "Listed."
            app_names = ("settings",)

            def is_successful(self, env):
                return 1.0

        class StartupSibling(StartupListed):
            pass
        '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_TASKS", dict(registry._TASKS))
    monkeypatch.setattr(registry, "_SHADOWED", {})
    builtin_index.defer_all([{"name": name, "source": module, "tags": [], "module": module, "attribute": name}
                             for name in ("StartupListed", "StartupSibling")])

    class Replacement(_Counted, register=False):
        name = "StartupListed"
        draws = []

    with registry.replacing(True) as replaced:
        registry.register(Replacement)
    assert replaced == [("StartupListed", module, __name__)]
    sibling = registry.get("StartupSibling")  # imports the module, which defines StartupListed too
    assert sibling.source == module and registry.get("StartupListed") is Replacement
    with pytest.raises(registry.TaskLoadError, match="'StartupSibling' is defined twice: in startup_listed_tasks and"):
        registry.defer(registry.Deferred("StartupSibling", "elsewhere", (), lambda: sibling))
