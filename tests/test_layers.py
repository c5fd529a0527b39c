"""The import graph follows the layers of ../shared/design.md, with no cycles.

Every module of the installed `taskkit` namespace is read with `ast` (nothing is imported), and
every import it makes — at module level or inside a function, but not under `TYPE_CHECKING` —
becomes an edge. A module may import its own layer and the layers below; the entry points
(composition roots: the CLIs and `taskkit/__init__`'s lazy exports) may import anything. Any
cycle, function-level imports included, fails with the modules that form it.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Installed name -> source folder (setup.py maps the card's top-level folders into taskkit).
FOLDERS = {"taskkit": ROOT / "taskkit", "taskkit.apps": ROOT / "apps",
           "taskkit.validators": ROOT / "validators", "taskkit.task_protos": ROOT / "task_protos"}

# Bottom up. A module's layer is the one of its longest matching prefix.
LAYERS: list[tuple[str, ...]] = [
    ("taskkit.errors", "taskkit.lazy", "taskkit.bounded", "taskkit.rng", "taskkit.params", "taskkit.task_protos",
     "taskkit.device.quoting", "taskkit.device.shell_protocol", "taskkit.device.errors", "taskkit.user_cache",
     "taskkit.compiled_templates", "taskkit.ports"),
    ("taskkit.device", "taskkit.env"),  # transport and device services
    ("taskkit.sim",),  # the simulated device: a transport implementation
    ("taskkit.apps", "taskkit.config"),  # app models, and device configs put on them
    ("taskkit.sim.gui",),  # screens rendered from the apps' stored state
    ("taskkit.validators",),
    ("taskkit.specs", "taskkit.task", "taskkit.gui_reference", "taskkit.metadata", "taskkit.composite", "taskkit.registry",
     "taskkit.loading", "taskkit.builtin_index",
     "taskkit.compat"),
    ("taskkit.agents",),
    ("taskkit.actions", "taskkit.suite", "taskkit.runner", "taskkit.report", "taskkit.connect",
     "taskkit.cli", "taskkit.families", "taskkit.seed_coverage", "taskkit.trajectory", "taskkit.resume", "taskkit.pool",
     "taskkit.metrics", "taskkit.plots", "taskkit.report_html", "taskkit.side_effects",
     "taskkit.ray_pool", "taskkit.fidelity", "taskkit.calibrate", "taskkit.gym", "taskkit.gym_ray", "taskkit.openenv", "taskkit.demos", "taskkit.static_eval",
     "taskkit.outdir"),
    ("taskkit.testing",),
]
# Composition roots: they wire the layers together and may import any of them.
ENTRY_POINTS = {"taskkit", "taskkit.run", "taskkit.check", "taskkit.sim.__main__", "taskkit.report.__main__",
                "taskkit.demos.__main__", "taskkit.static_eval.__main__", "taskkit.calibrate.__main__",
                "taskkit.compat.android_world.goals"}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, folder in FOLDERS.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join([package, *parts])
            if not any(name.startswith(other + ".") or name == other
                       for other in FOLDERS if other != package and other.startswith(package + ".")):
                found[name] = path
    return found


MODULES = _modules()


TASKS_LAYER = 6


# Packages under apps/ that hold only tasks (no app model): cross-app tasks and the seed families'.
TASK_PACKAGES = ("taskkit.apps.composite", "taskkit.apps.spa", "taskkit.apps.androidlens")


def _is_task_module(module: str) -> bool:
    """Built-in tasks live beside their app (apps/<app>/tasks.py, apps/<app>/bmoca*.py) but
    belong to the task layer, as do the task-only packages."""
    last = module.rsplit(".", 1)[-1]
    return module.startswith("taskkit.apps.") and (
        last == "tasks" or last.startswith("bmoca")
        or any(module == p or module.startswith(p + ".") for p in TASK_PACKAGES))


def _layer(module: str) -> int | None:
    if _is_task_module(module):
        return TASKS_LAYER
    best: tuple[int, int] | None = None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    return None if best is None else best[0]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(module: str, path: Path) -> set[str]:
    """The taskkit modules `module` imports (resolved to modules, not to their attributes)."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                targets.add(candidate if candidate in MODULES else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {target for target in targets if target in MODULES and target != module}


GRAPH = {module: _imports(module, path) for module, path in MODULES.items()}


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(m for m in MODULES if m not in ENTRY_POINTS and _layer(m) is None)
    assert not unplaced, f"modules with no layer in tests/test_layers.py: {unplaced}"


def test_no_upward_imports() -> None:
    upward = []
    for module, targets in sorted(GRAPH.items()):
        if module in ENTRY_POINTS:
            continue
        mine = _layer(module)
        for target in sorted(targets):
            theirs = _layer(target)
            if target not in ENTRY_POINTS and mine is not None and theirs is not None and theirs > mine:
                upward.append(f"{module} (layer {mine}) imports {target} (layer {theirs})")
            elif target in ENTRY_POINTS and target != "taskkit":
                upward.append(f"{module} imports the entry point {target}")
    assert not upward, "\n".join(upward)


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def connect(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH.get(node, ()):
            if target == "taskkit":
                continue  # the package's lazy exports resolve at attribute access, not at import
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(GRAPH):
        if module not in index:
            connect(module)
    return found


def test_no_import_cycles() -> None:
    cycles = _cycles()
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_checker_sees_edges() -> None:
    """The test above can fail: a known downward edge is in the graph."""
    assert "taskkit.device.base" in GRAPH["taskkit.apps.table"]
    with pytest.raises(KeyError):
        GRAPH["taskkit.no_such_module"]
