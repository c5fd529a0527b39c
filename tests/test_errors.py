"""Every exception taskkit defines derives from one root, `taskkit.errors.TaskkitError`."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import taskkit
from taskkit.errors import TaskkitError

# Control flow, not errors: they must pass through `except Exception`.
NOT_ERRORS = {"taskkit.testing.episodes.Abort"}


def _exception_classes() -> dict[str, type[BaseException]]:
    import taskkit.apps
    import taskkit.validators

    found = {}
    infos = [info for package in (taskkit, taskkit.apps, taskkit.validators)
             for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    for info in infos:
        if info.name.endswith("__main__") or ".compat." in info.name:
            continue  # entry points; AndroidWorld's own names keep AndroidWorld's bases
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == info.name
                    and not name.startswith("_")):
                found[f"{info.name}.{name}"] = value
    return found


def test_every_public_exception_is_a_taskkit_error():
    classes = _exception_classes()
    assert "taskkit.validators.questions.ExpectedAnswerError" in classes and len(classes) > 40  # the walk found them all
    strays = sorted(name for name, cls in classes.items()
                    if name not in NOT_ERRORS and not issubclass(cls, TaskkitError))
    assert strays == []


def test_the_root_keeps_each_errors_kind():
    from taskkit.device.errors import DeviceError
    from taskkit.params import ParamError

    assert issubclass(ParamError, ValueError) and issubclass(DeviceError, RuntimeError)
