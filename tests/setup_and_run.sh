#!/usr/bin/env bash
# Install everything the tests need (Debian packages, then the project with its test extras)
# and run the whole suite. This is the README's test command; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v sqlite3 >/dev/null 2>&1 || need+=(sqlite3)
command -v adb >/dev/null 2>&1 || need+=(adb)
command -v protoc >/dev/null 2>&1 || need+=(protobuf-compiler)
command -v chromium >/dev/null 2>&1 || need+=(chromium)  # opens the HTML report in a test
# tesseract for the screenshots' legibility test (the fonts the screens draw with ship with the package)
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

# torch, CPU-only, before the test extras (TRL needs it; PyPI's own wheel pulls gigabytes of CUDA):
# from PyTorch's own index, or PyPI's when that index cannot be reached.
python3 -c "import torch" 2>/dev/null \
  || python3 -m pip install -q torch --index-url https://download.pytorch.org/whl/cpu \
  || python3 -m pip install -q torch
python3 -m pip install -q -e ".[test]"
# The simulated devices of the tests write many small files (device.json, gui.json, databases):
# on a RAM disk (tmpfs) the suite takes about half the time it takes on a disk. TMPDIR moves
# pytest's tmp_path and every temporary directory the tests and their subprocesses make; only
# when /dev/shm has 4 GiB free (the suite peaks near 1.5 GiB). TASKKIT_TEST_TMP=DIR chooses one.
if [ -z "${TASKKIT_TEST_TMP:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] \
   && [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -ge 4194304 ]; then
  TASKKIT_TEST_TMP=$(mktemp -d /dev/shm/taskkit-tests.XXXXXX)
  trap 'rm -rf "$TASKKIT_TEST_TMP"' EXIT
fi
[ -z "${TASKKIT_TEST_TMP:-}" ] || export TMPDIR="$TASKKIT_TEST_TMP"
# -n auto: one pytest worker per core (pytest-xdist); every test keeps to its own temporary
# directories, simulated devices, ports (0: the kernel picks) and private adb servers.
HYPOTHESIS_PROFILE=ci python3 -m pytest -q -p no:cacheprovider -n auto tests "$@"
