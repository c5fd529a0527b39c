"""Registered copies of two test tasks, for `python -m taskkit.check --task_module tests/testing/cli_tasks.py`.

Only ever loaded by the check CLI in a subprocess: importing it registers the tasks.
"""
from tests.testing import broken_tasks


class CliAddCoffee(broken_tasks.AddCoffee):
    """Correct."""


class CliSolveFailsOnEvenSeeds(broken_tasks.AddCoffeeSolveFailsOnEvenSeeds):
    """Broken for even seeds above 100."""
