"""Which rule codes run for a file. Its own module so that configuration, the cache and the
command line can name a selection without importing libcst."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Selection:
    """Which codes run: a code runs when selected by a prefix and not ignored by a longer one."""

    select: tuple[str, ...] = ("DEV",)
    ignore: tuple[str, ...] = ()
    # Imports of the project's own files bind what those files define (`lint.model.summaries`);
    # off: every file alone, its imports unknown.
    project: bool = True

    def enabled(self, code: str) -> bool:
        chosen = [p for p in self.select if code.startswith(p)]
        dropped = [p for p in self.ignore if code.startswith(p)]
        if not chosen:
            return False
        return not dropped or max(map(len, chosen)) > max(map(len, dropped))
