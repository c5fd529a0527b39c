"""AndroidWorld's own code, imported unmodified from a checkout, with its device layer served by taskkit.

`use(path)` installs an import hook (a `sys.meta_path` finder) for the `android_world` and
`android_env` packages:

* what does not touch a device comes from the checkout, as written: `android_world.task_evals`
  (with its `utils`, `common_validators`, calendar and information-retrieval modules),
  `android_world.utils`, `android_world.registry`, `android_world.constants`, ...; the
  information-retrieval protos (`proto/*.proto`) are compiled with protoc on first import;
* what talks to the device — `android_world.env` (`interface`, `adb_utils`, `tools`,
  `representation_utils`, `device_constants`, `setup_device`) and `android_env` — is the module
  of the same name under `taskkit.compat.android_world`, on the simulated device and over adb.

PATH is the checkout's `android_world` package or its parent. Nothing is copied or rewritten.
"""
from __future__ import annotations

import atexit
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
import tempfile
import types
from pathlib import Path

from taskkit.errors import TaskkitError

SERVED = ("android_world.env", "android_env")  # served by taskkit: the device layer
COMPAT = "taskkit.compat.android_world"
_PROTO_SUFFIX = "_pb2"


class CheckoutError(TaskkitError, ValueError):
    """PATH is not an AndroidWorld checkout, or a part of it cannot be loaded."""


def find_package(path: str | Path) -> Path:
    """The `android_world` package folder of a checkout given as the package or its parent."""
    root = Path(path).expanduser().resolve()
    for candidate in (root, root / "android_world"):
        if candidate.name == "android_world" and (candidate / "task_evals" / "task_eval.py").is_file():
            return candidate
    raise CheckoutError(f"--android_world {path}: not an AndroidWorld checkout (no android_world/task_evals/"
                        "task_eval.py there); give the checkout's folder or its android_world package")


def served_name(fullname: str) -> str | None:
    """The taskkit module behind an AndroidWorld device-layer module (None: from the checkout)."""
    for prefix in SERVED:
        if fullname == prefix or fullname.startswith(prefix + "."):
            return f"{COMPAT}.{fullname.removeprefix('android_world.')}"
    return None


class _Alias(importlib.abc.Loader):
    """Loads an AndroidWorld name as the taskkit module that serves it (one module, two names)."""

    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return importlib.import_module(self.target)

    def exec_module(self, module: types.ModuleType) -> None:
        """Already executed under its taskkit name."""


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, package: Path):
        self.package = package
        self.generated: Path | None = None

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != "android_world" and not fullname.startswith("android_world.") and served_name(fullname) is None:
            return None
        served = served_name(fullname)
        if served is not None:
            if importlib.util.find_spec(served) is None:
                return None  # an import error naming the AndroidWorld module
            is_package = hasattr(importlib.import_module(served), "__path__")
            return importlib.machinery.ModuleSpec(fullname, _Alias(served), is_package=is_package)
        relative = Path(*fullname.split(".")[1:])
        folder = self.package / relative
        if (folder / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(fullname, folder / "__init__.py",
                                                          submodule_search_locations=[str(folder)])
        source = folder.with_suffix(".py")
        if source.is_file():
            return importlib.util.spec_from_file_location(fullname, source)
        if folder.name.endswith(_PROTO_SUFFIX) and folder.with_name(folder.name[:-len(_PROTO_SUFFIX)] + ".proto").is_file():
            return importlib.util.spec_from_file_location(fullname, self._compiled(relative))
        return None

    def _compiled(self, relative: Path) -> Path:
        """The generated module of `relative`'s .proto (every proto of the checkout compiled once)."""
        if self.generated is None:
            out = Path(tempfile.mkdtemp(prefix="taskkit-aw-protos-"))
            atexit.register(shutil.rmtree, out, True)  # the modules are loaded by then
            protos = sorted(str(p.relative_to(self.package.parent)) for p in self.package.rglob("*.proto"))
            _protoc(self.package.parent, out, protos)
            self.generated = out
        return self.generated / "android_world" / relative.with_suffix(".py")


def _protoc(include: Path, out: Path, protos: list[str]) -> None:
    try:
        from grpc_tools import protoc  # type: ignore[import-not-found]
        command = None
    except ImportError:
        protoc = None
        binary = shutil.which("protoc")
        if binary is None:
            raise CheckoutError("AndroidWorld's information-retrieval protos need protoc: install it (Debian: "
                                "apt-get install protobuf-compiler) or pip install grpcio-tools") from None
        command = [binary]
    args = [f"-I{include}", f"--python_out={out}", *protos]
    if command is None:
        status = protoc.main(["protoc", *args])
        failed = status != 0
        detail = ""
    else:
        result = subprocess.run(command + args, capture_output=True, text=True, timeout=120)
        failed, detail = result.returncode != 0, result.stderr.strip()
    if failed:
        raise CheckoutError(f"protoc could not compile AndroidWorld's protos: {detail or 'see above'}")


def use(path: str | Path) -> Path:
    """Import `android_world` from the checkout at `path` from now on (its device layer from
    taskkit); returns the package folder. A second call with another checkout is refused."""
    package = find_package(path)
    for finder in sys.meta_path:
        if isinstance(finder, _Finder):
            if finder.package != package:
                raise CheckoutError(f"AndroidWorld is already imported from {finder.package}; one checkout per process")
            return package
    stale = [name for name in sys.modules if name == "android_world" or name.startswith("android_world.")]
    for name in stale:  # an installed android_world must not shadow the checkout
        del sys.modules[name]
    sys.meta_path.insert(0, _Finder(package))
    return package
