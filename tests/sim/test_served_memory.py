"""What an idle served device holds (issue #37: ≤ 60 MB RSS idle): counted, not measured.

`python -m taskkit.sim serve` builds the device and listens; until a client asks for a screenshot,
no image library, font, picture or translation table is loaded, and neither the benchmark data
tools (numpy, pandas) nor the task generators (faker, jinja2) are imported: what the GUI draws
with is loaded on first use, once per process, and shared by every device in it (module-level
caches: taskkit.sim.gui.render's fonts, taskkit.sim.gui.localize's table).
"""
from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("PIL", "numpy", "pandas", "pyarrow", "faker", "jinja2", "gymnasium")
# As `serve` starts (taskkit/sim/__main__.py), then what it has loaded.
_IDLE = """
import json, sys
from pathlib import Path
from taskkit.sim.__main__ import install_apps
from taskkit.sim.adbd import AdbdServer
install_apps(Path(sys.argv[1]))
server = AdbdServer(sys.argv[1], host="127.0.0.1", port=0)
server.listen()
from taskkit.sim.gui import localize
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[2].split(",")))
print(json.dumps({"heavy": heavy, "render": "taskkit.sim.gui.render" in sys.modules,
                  "translations": localize._table.cache_info().currsize}))
"""


def test_an_idle_served_device_has_loaded_no_image_font_or_translation(tmp_path) -> None:
    run = subprocess.run([sys.executable, "-c", _IDLE, str(tmp_path / "state"), ",".join(HEAVY)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    loaded = json.loads(run.stdout)
    assert loaded == {"heavy": [], "render": False, "translations": 0}
