"""`python -m taskkit.report OUT_DIR`: exit codes, a torn last line, escaping, relative links, and
the page as headless Chromium renders it (the episode rows in the DOM, no console message)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taskkit import report_html

HOSTILE_GOAL = '<script>alert("goal")</script> & "quotes"'


def write_run(out: Path, rows: list[dict], torn: str = "") -> Path:
    """An output directory as taskkit.run leaves it: results.jsonl (plus a torn tail), a
    manifest, a trajectory and two screenshots for the first row."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows) + torn, encoding="utf-8")
    (out / "manifest.json").write_text(json.dumps({"seed": 30, "agent": "scripted", "device": "sim"}))
    trajectories = out / "trajectories"
    (trajectories / rows[0]["instance_id"]).mkdir(parents=True)
    (trajectories / f"{rows[0]['instance_id']}.jsonl").write_text('{"step": 0}\n')
    for step in (0, 1):
        (trajectories / rows[0]["instance_id"] / f"step_{step:03d}.png").write_bytes(b"\x89PNG")
    return out


def rows() -> list[dict]:
    return [
        {"task": "SimpleSmsSend", "instance_id": "SimpleSmsSend_0", "goal": HOSTILE_GOAL, "apps": ["simple sms messenger"],
         "score": 0.0, "success": False, "steps": 4, "max_steps": 12, "status": "complete",
         "reasons": ["<img src=x onerror=alert(1)>"], "trajectory": "trajectories/SimpleSmsSend_0.jsonl",
         "difficulty": "easy", "tags": ["sms"], "optimal_steps": 3, "side_effects": ["<b>contacts</b> changed"]},
        {"task": "SimpleSmsSend", "instance_id": "SimpleSmsSend_1", "goal": "Send hi", "apps": ["simple sms messenger"],
         "score": 1.0, "success": True, "steps": 6, "max_steps": 12, "status": "complete", "difficulty": "easy",
         "optimal_steps": 3, "trajectory": "trajectories/SimpleSmsSend_1.jsonl", "side_effects": [],
         "usage": {"prompt_tokens": 12000000, "cost_usd": 0.25}},
        {"task": "SystemWifiTurnOn", "instance_id": "SystemWifiTurnOn_0", "goal": "Turn wifi on.", "apps": ["settings"],
         "score": 0.0, "success": False, "steps": 0, "max_steps": 10, "error": "setup failed: boom",
         "error_kind": "task"},
    ]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "taskkit.report", *args], capture_output=True, text=True, timeout=120)


def test_the_report_escapes_every_value_and_has_no_script(tmp_path):
    path, warnings = report_html.write(write_run(tmp_path / "out", rows()))
    html = path.read_text(encoding="utf-8")
    assert warnings == []
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(&#34;goal&#34;)&lt;/script&gt; &amp; &#34;quotes&#34;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "&lt;b&gt;contacts&lt;/b&gt; changed" in html
    assert len(re.findall(r'<tr class="episode ', html)) == 3


def test_links_are_relative_and_only_to_files_that_exist(tmp_path):
    html = report_html.write(write_run(tmp_path / "out", rows()))[0].read_text(encoding="utf-8")
    hrefs = re.findall(r'href="([^"]*)"', html)
    assert hrefs == ["trajectories/SimpleSmsSend_0.jsonl", "trajectories/SimpleSmsSend_0/step_000.png",
                     "trajectories/SimpleSmsSend_0/step_001.png"]
    assert "trajectories/SimpleSmsSend_1.jsonl (missing)" in html  # recorded, but not on disk


def test_no_link_leaves_the_output_directory(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.jsonl").write_text("{}\n")
    (outside / "shot.png").write_bytes(b"\x89PNG")
    hostile = [dict(rows()[2], instance_id=str(outside), trajectory=str(outside / "secret.jsonl")),
               dict(rows()[2], instance_id="../elsewhere", trajectory="../elsewhere/secret.jsonl")]
    html = report_html.write(write_run(tmp_path / "out", rows() + hostile))[0].read_text(encoding="utf-8")
    assert len(re.findall(r'href="', html)) == 3  # the first row's trajectory and its two screenshots only
    assert "secret.jsonl (missing)" in html


def test_the_report_shows_the_metrics(tmp_path):
    html = report_html.write(write_run(tmp_path / "out", rows()))[0].read_text(encoding="utf-8")
    assert "1/2 = 50.0%" in html  # the errored episode is not scored
    assert "1 declared complete but failed" in html
    assert "mean 2.00, median 2.00 over 1 successful episode(s)" in html
    assert "1 of 2 episode(s)" in html  # side effects: one of the two rows that carry the field
    assert "prompt_tokens 12000000 (tokens 12000000, cost 0.25)" in html
    assert html.count('class="group"') == 2 + 1 + 1  # bars: 2 apps, 1 difficulty, 1 tag


def test_cli_writes_the_report(tmp_path):
    out = write_run(tmp_path / "out", rows())
    proc = cli(str(out))
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.strip() == f"report: {out / 'report.html'}"


def test_cli_skips_a_torn_last_line_with_a_warning(tmp_path):
    out = write_run(tmp_path / "out", rows(), torn='{"task": "SystemWifiTurnOn", "instance_id": "Sys')
    proc = cli(str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("\n") == 1 and "results.jsonl:4: skipped a torn last line" in proc.stderr
    assert (out / "report.html").read_text(encoding="utf-8").count('<tr class="episode ') == 3


@pytest.mark.parametrize("setup, message", [
    (lambda d: None, "no such directory"),
    (lambda d: d.mkdir(), "no results.jsonl"),
    (lambda d: (d.mkdir(), (d / "results.jsonl").write_text('{"task": "A"\n{"task": "A", "instance_id": "A_0"}\n')),
     "results.jsonl:1: damaged row"),
    (lambda d: (d.mkdir(), (d / "results.jsonl").write_text('[1]\n{"task": "A", "instance_id": "A_0"}\n')),
     "results.jsonl:1: damaged row (not a result row"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, setup, message):
    out = tmp_path / "out"
    setup(out)
    proc = cli(str(out))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("taskkit.report: error: ") and message in proc.stderr
    assert not (out / "report.html").exists()


@pytest.mark.parametrize("args", [[], ["a", "b"], ["--bogus"]])
def test_cli_needs_exactly_one_directory(args):
    proc = cli(*args)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "expected one OUT_DIR" in proc.stderr


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def headless(page: Path, *options: str) -> tuple[str, list[str]]:
    """The DOM Chromium builds from `page`, and the console messages it logged (with
    --enable-logging every console message, error or not, is an INFO:CONSOLE line)."""
    proc = subprocess.run([CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--enable-logging=stderr", "--v=0",
                           *options, f"--user-data-dir={page.parent / 'chromium-profile'}", "--dump-dom", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]


@pytest.fixture
def chromium():
    if CHROMIUM is None:
        print("skipped: Debian's chromium is not installed (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return CHROMIUM


def test_chromium_renders_the_report_with_no_console_message(tmp_path, chromium):
    path = report_html.write(write_run(tmp_path / "out", rows()))[0]
    dom, console = headless(path)
    assert console == []
    assert len(re.findall(r'<tr class="episode ', dom)) == 3
    assert dom.count("<svg") == 3 + 2  # app, difficulty and tag charts; score and step-ratio histograms
    assert "<script" not in dom and "&lt;script&gt;alert" in dom  # the hostile goal is text in the DOM


def test_chromium_console_check_sees_a_page_that_loads_from_the_network(tmp_path, chromium):
    """The check above can fail: the report's policy forbids scripts and remote files, and
    Chromium logs each refusal."""
    path = report_html.write(write_run(tmp_path / "out", rows()))[0]
    html = path.read_text(encoding="utf-8")
    tampered = path.with_name("tampered.html")
    tampered.write_text(html.replace("</head>", '<link rel="stylesheet" href="https://cdn.example.com/x.css">'
                                                "<script>var x = 1;</script></head>"), encoding="utf-8")
    _, console = headless(tampered)
    assert len(console) == 2 and "Content Security Policy" in console[0]


def test_long_paths_wrap_inside_a_1400_px_window(tmp_path, chromium):
    """A 300-character path in a reason, a side effect, an error and the run's device wraps in
    its cell: the page stays within a 1400 px viewport (measured by Chromium's layout)."""
    path = "/sdcard/" + "/".join(["Documents_of_a_long_folder_name"] * 9) + "/x.md"
    assert len(path) >= 300
    long_rows = rows()
    long_rows[0].update(reasons=[f"expected {path} to exist"], side_effects=[f"file {path} added"],
                        error=f"teardown failed: {path}", error_kind="task", trajectory=f"trajectories/{path[1:]}.jsonl")
    out = write_run(tmp_path / "out", long_rows)
    (out / "manifest.json").write_text(json.dumps({"seed": 30, "agent": "scripted", "device": f"sim:{path}"}))
    page = report_html.write(out)[0]
    measured = page.with_name("measured.html")  # the report forbids scripts: a copy that may measure itself
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page.read_text(encoding="utf-8"))
    measured.write_text(html.replace("</body>", "<script>document.body.setAttribute('data-width', "
                                     "Math.ceil(document.getElementById('episodes').getBoundingClientRect().right) "
                                     "+ ' ' + document.documentElement.scrollWidth);</script></body>"), encoding="utf-8")
    dom, _ = headless(measured, "--window-size=1400,900")
    right, scroll_width = map(int, re.search(r'data-width="(\d+) (\d+)"', dom).groups())
    assert right <= 1400 and scroll_width <= 1400, (right, scroll_width)
