"""AndroidLens-style long tasks (arXiv AndroidLens, Sec. C–E of its supplement) on the apps taskkit models.

Each task is a set of goals; each goal is one milestone (a state check), its reference solution
and its place in an ordered or unordered group (`goals.py`). The tasks themselves are in `tasks.py`.
"""
