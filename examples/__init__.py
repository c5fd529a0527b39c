"""Worked examples: user tasks and a user agent, runnable with `python -m taskkit.run`."""
