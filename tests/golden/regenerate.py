"""Rewrite seed30.json after a deliberate change to task content: `python tests/golden/regenerate.py`."""
import json
from pathlib import Path

from taskkit import loading, suite

GOLDEN = Path(__file__).with_name("seed30.json")
loading.load_builtin()
GOLDEN.write_text(json.dumps(suite.describe_suite(suite.build_suite(30)), indent=1, ensure_ascii=False, sort_keys=True) + "\n")
print(f"wrote {GOLDEN}")
