"""Starting ``canasta serve`` in a process of its own, for the restart and browser tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data: Path, port: int) -> subprocess.Popen[bytes]:
    """``canasta serve --port PORT --data DATA`` in a new process, returned once it answers."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "canasta", "serve", "--port", str(port), "--data", str(data)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=2):
                return proc
        except (urllib.error.URLError, OSError):
            if proc.poll() is not None:
                out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
                raise AssertionError(f"the server stopped: {out}") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start within 60 s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Kill the server process (SIGKILL: nothing is flushed on the way out) and wait for it."""
    proc.kill()
    proc.wait(10)
    if proc.stdout:
        proc.stdout.close()
