"""The `llm` agent against a local server that returns scripted chat completions (the prompt,
the parsing of good and malformed replies, retries, token accounting — not a model), and the
`human` agent's short forms."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

from taskkit.agents import Action, load
from taskkit.agents.base import Episode, Observation
from taskkit.agents.human import HumanAgent, parse_command
from taskkit.device.services.ui import BoundingBox, UIElement

pytest.importorskip("openai", reason="the llm agent's tests need the optional openai client (pip install 'taskkit[llm]')")

ELEMENTS = (UIElement(text="Wi-Fi", class_name="android.widget.TextView", bbox=BoundingBox(0, 0, 10, 10)),
            UIElement(class_name="android.widget.Switch", bbox=BoundingBox(10, 0, 20, 10), is_clickable=True))
EPISODE = Episode("Turn Wi-Fi on", 10, ("settings",), "SystemWifiTurnOn", "SystemWifiTurnOn_0", 7)


def observation(step: int, error: str | None = None) -> Observation:
    return Observation("Turn Wi-Fi on", step, 10, "com.android.settings/.Settings", ELEMENTS, last_action_error=error)


class Scripted:
    """Replies in order; a reply of int N answers HTTP N (to exercise retries)."""

    def __init__(self, replies: list[object]):
        self.replies, self.requests = list(replies), []

    def handler(self) -> type[BaseHTTPRequestHandler]:
        script = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                script.requests.append(body)
                reply = script.replies.pop(0)
                if isinstance(reply, int):
                    self.send_response(reply)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(b'{"error": {"message": "try again"}}')
                    return
                payload = {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                           "choices": [{"index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": reply}}],
                           "usage": {"prompt_tokens": 100 + len(script.requests), "completion_tokens": 7,
                                     "total_tokens": 107 + len(script.requests)}}
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        return Handler


@pytest.fixture
def server() -> Iterator[tuple[Scripted, str]]:
    script = Scripted([])
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), script.handler())
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield script, f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_prompt_parsing_and_tokens(server, monkeypatch) -> None:
    script, url = server
    script.replies = ['I will flip the switch. {"action_type": "click", "index": 1}',
                      "no idea what to do",
                      '{"action_type": "status", "goal_status": "complete"}']
    agent = load("llm", model="scripted-model", base_url=url)
    agent.reset(EPISODE)
    assert agent.step(observation(0)) == Action("click", index=1)
    prompt = script.requests[0]["messages"][1]["content"]
    assert "Goal: Turn Wi-Fi on" in prompt and "0: 'Wi-Fi' (TextView)" in prompt and "1: 'Switch:off' (Switch, clickable)" in prompt
    assert script.requests[0]["model"] == "scripted-model"
    assert agent.usage()["prompt_tokens"] == 101 and agent.usage()["completion_tokens"] == 7
    malformed = agent.step(observation(1))
    assert malformed.action_type == "unknown" and "no JSON action" in malformed.text  # → last_action_error
    assert agent.step(observation(2, error="model reply had no valid action")) == Action("status", goal_status="complete")
    history = script.requests[2]["messages"][1]["content"]
    assert '1. {"action_type": "click", "index": 1}' in history and "2. (no valid action" in history
    assert "Your last action failed: model reply had no valid action" in history


def test_retries_are_counted(server) -> None:
    script, url = server
    script.replies = [503, '{"action_type": "navigate_back"}']
    agent = load("llm", model="m", base_url=url)
    agent.reset(EPISODE)
    assert agent.step(observation(0)) == Action("navigate_back")
    assert agent.usage()["retries"] == 1 and len(script.requests) == 2


def test_llm_needs_a_model() -> None:
    from taskkit.agents import AgentLoadError

    with pytest.raises(AgentLoadError, match="needs a model"):
        load("llm")


@pytest.mark.parametrize("line, action", [
    ("click 3", Action("click", index=3)),
    ("type 2 hello world", Action("input_text", index=2, text="hello world")),
    ("scroll 4 down", Action("scroll", index=4, direction="down")),
    ("back", Action("navigate_back")),
    ("answer 42", Action("answer", text="42")),
    ("done", Action("status", goal_status="complete")),
    ('{"action_type": "long_press", "index": 1}', Action("long_press", index=1)),
])
def test_human_short_forms(line: str, action: Action) -> None:
    assert parse_command(line) == action


def test_human_is_asked_again_after_a_bad_line() -> None:
    import io

    lines = iter(["clack 1", "click x", "click 1"])
    out = io.StringIO()
    agent = HumanAgent(read=lambda: next(lines), out=out)
    agent.reset(EPISODE)
    assert agent.step(observation(0)) == Action("click", index=1)
    shown = out.getvalue()
    assert "goal: Turn Wi-Fi on" in shown and "1: 'Switch:off'" in shown
    assert "not an action: 'clack 1'" in shown and "click needs an element number" in shown


COMPLETE = '{"action_type": "status", "goal_status": "complete"}'


def answer_once(reply: str) -> int:
    """A loopback port that answers one chat completion, then closes: nobody listens on it
    afterwards, so every later request is refused."""
    import socket

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def serve() -> None:
        connection, _ = listener.accept()
        listener.close()  # from here on the port refuses connections
        with connection, connection.makefile("rb") as request:
            length = 0
            while (line := request.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                length = int(value) if name.lower() == "content-length" else length
            request.read(length)
            body = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                               "choices": [{"index": 0, "finish_reason": "stop",
                                            "message": {"role": "assistant", "content": reply}}]}).encode()
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                               b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    threading.Thread(target=serve, daemon=True).start()
    return listener.getsockname()[1]


def test_an_unreachable_endpoint_stops_the_run_with_exit_3_and_the_same_command_resumes(tmp_path) -> None:
    """The endpoint answers the first episode, then nobody listens: after the client's retries the
    run stops (exit 3, one line), the first row is kept, and the same command — once the
    endpoint is back on the same port — runs only the two missing episodes."""
    import subprocess
    import sys

    port = answer_once(COMPLETE)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "taskkit.run", "--tasks", "SystemWifiTurnOn", "--n_task_combinations", "3",
               "--agent", "llm", "--llm_model", "m", "--llm_base_url", f"http://127.0.0.1:{port}/v1",
               "--output_dir", str(out)]
    first = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert first.returncode == 3, first.stderr
    errors = [line for line in first.stderr.splitlines() if "error:" in line]
    assert errors == [first.stderr.splitlines()[-1]] and "Traceback" not in first.stderr
    assert errors[0].startswith(f"taskkit.run: infrastructure error: --agent llm: the endpoint http://127.0.0.1:{port}/v1")
    assert "APIConnectionError" in errors[0] and "stopped after 1 of 3 episode(s)" in errors[0]
    assert "run the same command again to resume" in errors[0]
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [(row["instance_id"], row["error"]) for row in rows] == [("SystemWifiTurnOn_0", None)]

    script = Scripted([COMPLETE, COMPLETE])
    httpd = ThreadingHTTPServer(("127.0.0.1", port), script.handler())  # the endpoint is back
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    finally:
        httpd.shutdown()
    assert again.returncode == 0, again.stderr
    assert "resuming" in again.stderr and "1 of 3 episode(s) already recorded" in again.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(row["instance_id"] for row in rows) == [f"SystemWifiTurnOn_{i}" for i in range(3)]
    assert len(script.requests) == 2 and all(row["error"] is None for row in rows)


def test_an_unreachable_endpoint_stops_a_parallel_run_too(tmp_path) -> None:
    """A worker process's agent meets the dead endpoint: the parent stops the run the same way."""
    import socket
    import subprocess
    import sys

    with socket.socket() as bound:  # bound, never listening: connections to it are refused
        bound.bind(("127.0.0.1", 0))
        proc = subprocess.run([sys.executable, "-m", "taskkit.run", "--tasks", "SystemWifiTurnOn", "--n_task_combinations",
                               "2", "--parallel", "2", "--agent", "llm", "--llm_model", "m", "--llm_base_url",
                               f"http://127.0.0.1:{bound.getsockname()[1]}/v1", "--output_dir", str(tmp_path)],
                              capture_output=True, text=True, timeout=300)
    assert proc.returncode == 3, proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("taskkit.run: infrastructure error: --agent llm: the endpoint")
    assert "Traceback" not in proc.stderr and (tmp_path / "results.jsonl").read_text() == ""


def _png(size: tuple[int, int]) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, (250, 250, 250)).save(out, format="PNG")
    return out.getvalue()


def test_m3a_mode_sends_the_screenshot_and_its_set_of_marks_copy(server) -> None:
    import base64
    import io

    from PIL import Image

    script, url = server
    script.replies = ['{"action_type": "click", "index": 1}']
    agent = load("llm", model="m", base_url=url, mode="m3a")
    assert agent.wants_screenshot
    agent.reset(EPISODE)
    screenshot = _png((40, 30))
    seen = Observation("Turn Wi-Fi on", 0, 10, "com.android.settings/.Settings", ELEMENTS, screenshot=screenshot)
    assert agent.step(seen) == Action("click", index=1)
    text, raw, marked = script.requests[0]["messages"][1]["content"]
    assert "0: 'Wi-Fi' (TextView)" in text["text"] and "labelled with its index" in text["text"]
    images = [base64.b64decode(part["image_url"]["url"].split(",", 1)[1]) for part in (raw, marked)]
    assert images[0] == screenshot
    plain, annotated = (Image.open(io.BytesIO(data)).convert("RGB") for data in images)
    assert annotated.size == plain.size
    box = ELEMENTS[1].bbox  # the switch's outline is drawn where its bounds are, not elsewhere
    assert annotated.getpixel((box.x_max - 2, box.y_max - 2)) != plain.getpixel((box.x_max - 2, box.y_max - 2))
    assert annotated.getpixel((35, 25)) == plain.getpixel((35, 25))


def test_an_unknown_llm_mode_is_one_line() -> None:
    from taskkit.agents import AgentLoadError

    with pytest.raises(AgentLoadError, match="--llm_mode x: use t3a .* or m3a"):
        load("llm", model="m", base_url="http://127.0.0.1:9/v1", mode="x")
