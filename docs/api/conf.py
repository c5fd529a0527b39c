"""Sphinx configuration of taskkit's API reference: `sphinx-build -b html docs/api OUT`.

Every page is generated from the code's docstrings and type hints by autodoc; nothing here is
written twice. tests/test_api_docs.py builds it in CI.
"""
from __future__ import annotations

project = "taskkit"
author = "the taskkit authors"
copyright = "2026, the taskkit authors"
extensions = ["sphinx.ext.autodoc"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
# Names that appear in annotations but are not documented objects of their own.
nitpicky = False
suppress_warnings = ["ref.python"]
html_theme = "alabaster"
html_title = "taskkit API reference"
exclude_patterns: list[str] = []
