"""Plain-text tables for the terminal: columns padded to their widest cell."""
from __future__ import annotations

from typing import Sequence


def aligned(rows: Sequence[Sequence[str]], rule: bool = False) -> list[str]:
    """One line per row, the first being the header; `rule` underlines it with dashes."""
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()

    lines = [line(row) for row in rows]
    if rule:
        lines.insert(1, "  ".join("-" * w for w in widths))
    return lines
