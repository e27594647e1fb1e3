"""What every subcommand shares: exit codes, the one-line error, `--plot`."""
from __future__ import annotations

import os
import sys
from typing import Callable, Optional

from devlint import hints

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def error(message: str) -> None:
    print(f"devlint: error: {message}", file=sys.stderr)


def detach_stdout() -> None:
    """After stdout failed (closed by `| head`, a full disk), point it at /dev/null: what is
    still buffered must not fail a second time, as a traceback, when Python exits."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def write_plot_or_fail(path: Optional[str], draw: Callable[[], None],
                       announce: Callable[[str], None]) -> int:
    """`--plot PATH` for verify and bench: draw, or one error line and exit status 2."""
    if not path:
        return EXIT_CLEAN
    try:
        draw()
    except ImportError:
        error(f"--plot needs matplotlib: {hints.MATPLOTLIB}")
        return EXIT_ERROR
    except OSError as exc:
        error(f"--plot: cannot write {path}: {exc.strerror or exc}")
        return EXIT_ERROR
    announce(f"wrote {path}")
    return EXIT_CLEAN
