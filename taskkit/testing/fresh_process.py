"""Fingerprints of task instances (params, goal, initial-state digest), here and in a fresh process.

`fingerprint(task_cls, seed, device)` initializes the instance, digests the device and tears it
down. `FreshProcess` runs `python -c ...` once: the child imports each task's module (by module
name, by file path when the name is not importable, or by spec folder for declarative tasks),
answers one JSON line per request and lives until closed. Requests may be sent ahead
(`request`) so the child works while this process checks other properties; `fingerprint` waits
for one answer. The child gets its own hash seed (`PYTHONHASHSEED=random`), so content that
depends on the iteration order of a set of strings differs there.

With `fresh_devices` the child opens a new device for every request (the simulator: cheap, and
no other run can have touched it); otherwise it opens the device once and is asked one
request at a time, so the two processes never use one device together.
"""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import tempfile
import threading
from typing import Any

from taskkit.device.state import state_digest
from taskkit.env import Env
from taskkit.errors import TaskkitError
from taskkit.testing.simcopies import SimTemplate

_ANSWER = "TASKKIT-FINGERPRINT "
_CHILD = (
    "import sys, json; sys.path[:0] = json.loads(sys.argv[1]); "
    "from taskkit.testing.fresh_process import serve; serve(sys.argv[2], sys.argv[3] == 'fresh', json.loads(sys.argv[4]))"
)
WAIT_SECONDS = 600  # a bound on one answer, so a hung child cannot hang the check


class NotImportable(TaskkitError):
    """The task class cannot be rebuilt in a fresh process (say why and how to fix it)."""


def fingerprint(task_cls: Any, seed: int, device: Any) -> dict[str, Any]:
    """{"params", "goal", "digest"} of `task_cls` at `seed` (JSON-normalized params)."""
    task = task_cls.from_seed(seed)
    env = Env(device)
    task.initialize_state(env)
    try:
        digest = state_digest(device)
    finally:
        task.teardown(env)
    return {"params": json.loads(json.dumps(task.params, sort_keys=True)), "goal": task.goal, "digest": digest}


def _module_where(module_name: str) -> dict[str, Any]:
    module = sys.modules.get(module_name)
    return {"module": module_name, "file": getattr(module, "__file__", None)}


def locate(task_cls: Any) -> dict[str, Any]:
    """How a fresh process finds `task_cls`: spec file, or module name, file and qualified name."""
    name = getattr(task_cls, "name", task_cls.__name__)
    source = str(getattr(task_cls, "source", ""))
    if source.endswith(".textproto"):
        from taskkit import apps

        # A spec names its apps; one defined outside apps/ registers when its module is imported.
        modules = sorted({apps.get(app).module for app in getattr(task_cls, "app_names", ())} - {""})
        return {"spec": source, "name": name,
                "preload": [_module_where(m) for m in modules if not m.startswith("taskkit.apps.")]}
    qualname = task_cls.__qualname__
    if "<locals>" in qualname:
        raise NotImportable(f"{task_cls.__name__} is defined inside a function; define it at module level "
                            "so a fresh process can import it")
    return {**_module_where(task_cls.__module__), "qualname": qualname, "name": name}


def _import_module(where: dict[str, Any]) -> Any:
    """A module by name, or else from its file."""
    import importlib
    import importlib.util

    if where["module"] != "__main__":
        try:
            return importlib.import_module(where["module"])
        except ImportError:
            pass
    if not where.get("file"):
        raise NotImportable(f"module {where['module']!r} cannot be imported and has no file")
    name = f"taskkit_fresh_{abs(hash(where['file'])) % 10**8}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, where["file"])
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _import_spec(where: dict[str, Any]) -> Any:
    from taskkit import loading, registry

    for module in where.get("preload", ()):
        _import_module(module)
    loading.load_builtin()  # the built-in specs; a user's spec folder is loaded below
    try:
        found = registry.get(where["name"])
    except registry.TaskLoadError:
        found = None
    if found is None or str(getattr(found, "source", "")) != where["spec"]:
        from taskkit import specs

        result = specs.load_dir(os.path.dirname(where["spec"]))
        found = next((c for c in result.classes if str(getattr(c, "source", "")) == where["spec"]), None)
        if found is None:
            raise NotImportable(f"{where['spec']} did not load: {'; '.join(map(str, result.errors)) or 'no task'}")
    return found


def _import(where: dict[str, Any]) -> Any:
    """The class `where` names, imported in this process."""
    from taskkit import registry

    if "spec" in where:
        return _import_spec(where)
    target: Any = _import_module(where)
    for part in where["qualname"].split("."):
        target = getattr(target, part, None)
        if target is None:
            break
    return target if target is not None else registry.get(where["name"])


def serve(device_spec: str, fresh_devices: bool, options: dict[str, Any] | None = None) -> None:
    """The child's loop: one JSON request per stdin line, one answer line each."""
    import signal

    from taskkit.connect import open_device

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # unwind: close (and delete) the devices
    shared = None
    template = SimTemplate() if fresh_devices and device_spec == "sim" else None
    try:
        for line in sys.stdin:
            request = json.loads(line)
            device = None
            try:
                cls = _import(request["where"])
                if fresh_devices:
                    device = template.new() if template else open_device(device_spec, **(options or {}))
                else:
                    shared = shared or open_device(device_spec, **(options or {}))
                answer = fingerprint(cls, request["seed"], device or shared)
            except Exception as error:  # reported to the parent as the property's failure
                answer = {"error": f"{type(error).__name__}: {error}"}
            finally:
                if device is not None:
                    device.close()
            answer["id"] = request["id"]
            sys.stdout.write(_ANSWER + json.dumps(answer, sort_keys=True) + "\n")
            sys.stdout.flush()
    finally:
        if shared is not None:
            shared.close()
        if template is not None:
            template.close()


class FreshProcess:
    """A child Python process answering fingerprint requests; starts lazily, `close` when done."""

    def __init__(self, device_spec: str = "sim", fresh_devices: bool | None = None,
                 options: dict[str, Any] | None = None):
        self.device_spec = device_spec
        self.options = dict(options or {})
        self.fresh_devices = device_spec == "sim" if fresh_devices is None else fresh_devices
        self._proc: subprocess.Popen[str] | None = None
        self._stderr: Any = None
        self._ids: dict[tuple[int, int], str] = {}
        self._answers: dict[str, dict[str, Any]] = {}
        self._ready = threading.Condition()
        self._counter = itertools.count(1)
        self._reader: threading.Thread | None = None

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is None:
            env = dict(os.environ, PYTHONHASHSEED="random")
            paths = [p for p in sys.path if p] + [os.getcwd()]
            self._stderr = tempfile.TemporaryFile(mode="w+")  # a file: a chatty child never blocks
            self._proc = subprocess.Popen(
                [sys.executable, "-c", _CHILD, json.dumps(paths), self.device_spec,
                 "fresh" if self.fresh_devices else "shared", json.dumps(self.options)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, text=True, env=env,
            )
            self._reader = threading.Thread(target=self._read, args=(self._proc,), daemon=True)
            self._reader.start()
        return self._proc

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout
        for line in proc.stdout:
            if line.startswith(_ANSWER):
                answer = json.loads(line[len(_ANSWER):])
                with self._ready:
                    self._answers[answer.pop("id")] = answer
                    self._ready.notify_all()
        with self._ready:
            self._answers["<exit>"] = {}
            self._ready.notify_all()

    def request(self, task_cls: Any, seed: int) -> None:
        """Ask for a fingerprint now (once per class and seed); the answer is kept."""
        key = (id(task_cls), seed)
        if key in self._ids:
            return
        ident = str(next(self._counter))
        self._ids[key] = ident
        try:
            where = locate(task_cls)
        except NotImportable as problem:
            with self._ready:
                self._answers[ident] = {"error": f"cannot rebuild the task in a fresh process: {problem}"}
            return
        proc = self._start()
        assert proc.stdin
        proc.stdin.write(json.dumps({"id": ident, "where": where, "seed": seed}) + "\n")
        proc.stdin.flush()

    def fingerprint(self, task_cls: Any, seed: int) -> dict[str, Any]:
        """The child's fingerprint of `task_cls` at `seed`, or {"error": ...}."""
        self.request(task_cls, seed)
        ident = self._ids[(id(task_cls), seed)]
        with self._ready:
            found = self._ready.wait_for(lambda: ident in self._answers or "<exit>" in self._answers,
                                         timeout=WAIT_SECONDS)
            if found and ident in self._answers:
                return dict(self._answers[ident])  # kept: hypothesis may ask for a seed again
        raise RuntimeError(f"the fresh process gave no answer: {self._last_error()}")

    def _last_error(self) -> str:
        if self._stderr is None:
            return "it was not started"
        self._stderr.seek(0)
        lines = self._stderr.read().strip().splitlines()
        return lines[-1] if lines else "no output"

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.terminate()  # answers still pending are not needed any more
            proc.wait(timeout=30)
        except (subprocess.TimeoutExpired, BrokenPipeError, OSError):
            proc.kill()
            proc.wait()
        finally:
            if self._reader is not None:
                self._reader.join(timeout=10)
            if proc.stdout:
                proc.stdout.close()
            if self._stderr is not None:
                self._stderr.close()
                self._stderr = None
