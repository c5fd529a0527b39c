"""A simulated device in a child process, driven one JSON line at a time (for crash tests).

    python -m tests.sim.sim_child STATE_DIR [--max_size BYTES] [--no_time_limit]

`--max_size` lowers the size limit of one value (limits.MAX_SIZE) and `--no_time_limit` lifts the
command time limit, for tests about sizes that must not depend on how fast the machine is (bound
such a child with rlimits instead). Each stdin line is {"shell": COMMAND}, {"push": DEVICE_PATH, "data": BASE64} or {"rusage": 1};
each answer is one JSON line {"stdout", "stderr", "exit_code"} (for rusage: {"maxrss_kib"}, the
process's peak resident memory). If the device crashes the process, the parent
sees the pipe close instead of an answer.
"""
from __future__ import annotations

import argparse
import base64
import json
import resource
import sys

from taskkit.sim import limits
from taskkit.sim.device import SimDevice


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.sim.sim_child")
    parser.add_argument("state_dir")
    parser.add_argument("--max_size", type=int, default=limits.MAX_SIZE)
    parser.add_argument("--no_time_limit", action="store_true")
    args = parser.parse_args()
    limits.MAX_SIZE = args.max_size
    device = SimDevice(args.state_dir)
    if args.no_time_limit:
        device.command_timeout = None
    for line in sys.stdin:
        request = json.loads(line)
        if "rusage" in request:
            answer = {"maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}
        elif "push" in request:
            device.push(base64.b64decode(request["data"]), request["push"])
            answer = {"stdout": "", "stderr": "", "exit_code": 0}
        else:
            result = device.shell(request["shell"])
            answer = {"stdout": result.stdout, "stderr": result.stderr, "exit_code": result.exit_code}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
