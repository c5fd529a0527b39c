"""Measure the simulated device against a real one (`python -m taskkit.calibrate`): the same
episodes on both, compared step by step (taskkit.calibrate.compare) and reported as JSON and HTML
(taskkit.calibrate.report)."""
