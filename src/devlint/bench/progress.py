"""A progress bar on a terminal, one line per step elsewhere (CI logs keep every line)."""
from __future__ import annotations

from typing import TextIO

WIDTH = 24


class Progress:
    def __init__(self, stream: TextIO, quiet: bool = False) -> None:
        self.stream = stream
        self.quiet = quiet
        self.tty = stream.isatty()
        self.open = False  # a bar is drawn on the current line

    def update(self, done: int, total: int, label: str) -> None:
        if self.quiet:
            return
        if not self.tty:
            if done < total:
                print(f"devlint bench: [{done + 1}/{total}] {label}", file=self.stream, flush=True)
            return
        filled = WIDTH * done // max(total, 1)
        bar = "#" * filled + "-" * (WIDTH - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} {label}\033[K")
        self.stream.flush()
        self.open = True

    def line(self, text: str) -> None:
        if self.quiet:
            return
        self.finish()
        print(f"devlint bench: {text}", file=self.stream, flush=True)

    def finish(self) -> None:
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False
