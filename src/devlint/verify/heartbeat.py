"""Where a run is while it runs: the child keeps its step count in a small file (one pwrite per
step) and dumps its stack (faulthandler, which answers even inside a C call) when the parent
sends SIGUSR2; the parent's heartbeat reads both when no step came for a while.
Never imports torch.
"""
from __future__ import annotations

import contextlib
import linecache
import os
import re
import signal
from pathlib import Path
from typing import Optional

WHERE_SIGNAL = signal.SIGUSR2
DEVLINT_DIR = str(Path(__file__).resolve().parent.parent)
_FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+) in (?P<function>\S+)')


def paths(hang_path: str) -> tuple[Path, Path]:
    """The run's (stack dump, step count) files, beside its hang file."""
    directory = Path(hang_path).parent
    return directory / "where.txt", directory / "steps"


class StepCounter:
    """The child's side: `counter(n)` after each step; 8 bytes rewritten in place."""

    def __init__(self, hang_path: str):
        self.fd = os.open(paths(hang_path)[1], os.O_WRONLY | os.O_CREAT, 0o600)

    def __call__(self, steps: int) -> None:
        with contextlib.suppress(OSError):
            os.pwrite(self.fd, b"%8d" % steps, 0)


def answer_where(hang_path: str, faulthandler) -> None:
    """The child's side: dump the stacks to the where file on the parent's signal (appended,
    so the parent empties the file before it asks)."""
    where = open(paths(hang_path)[0], "a")  # noqa: SIM115 - open for the process's life
    faulthandler.register(WHERE_SIGNAL, file=where, all_threads=True)


def read_steps(hang_path: str) -> Optional[int]:
    try:
        text = paths(hang_path)[1].read_bytes()[:8]
    except OSError:
        return None
    return int(text) if text.strip().isdigit() else None


def ask_where(pid: int, hang_path: str) -> bool:
    where = paths(hang_path)[0]
    try:
        with open(where, "r+") as f:
            f.truncate(0)
        os.kill(pid, WHERE_SIGNAL)
    except OSError:
        return False
    return True


def current_line(dump: str, user_root: str) -> Optional[dict]:
    """The innermost frame of the script's own code in a faulthandler dump (the thread the
    signal reached; paths already shown as the user's), or the innermost frame at all."""
    frames = [m for m in map(_FRAME.match, dump.splitlines()) if m]
    root = user_root.rstrip(os.sep) + os.sep
    users = [m for m in frames if m["path"].startswith(root) and DEVLINT_DIR not in m["path"]
             and not any(p in m["path"] for p in ("site-packages", "dist-packages"))]
    match = (users or frames or [None])[0]
    if match is None:
        return None
    line = int(match["line"])
    return {"path": match["path"], "line": line, "function": match["function"],
            "code": linecache.getline(match["path"], line).strip()}
