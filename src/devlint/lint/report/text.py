"""flake8-style lines: `path:line:col: CODE message`, then a summary line."""
from __future__ import annotations

import linecache
import os
from collections import Counter
from dataclasses import dataclass

from devlint.core.findings import Finding
from devlint.lint.report import RunResult

BOLD, RED, CYAN, RESET = "\033[1m", "\033[31m", "\033[36m", "\033[0m"


@dataclass(frozen=True)
class TextStyle:
    show_source: bool = False
    color: bool = False

    @classmethod
    def for_stream(cls, stream, show_source: bool = False) -> "TextStyle":
        """Colour on a terminal, or wherever FORCE_COLOR asks (force-color.org); never when
        NO_COLOR asks (no-color.org). Each counts only when set to a non-empty value."""
        if os.environ.get("NO_COLOR"):
            return cls(show_source, color=False)
        tty = getattr(stream, "isatty", lambda: False)()
        return cls(show_source, color=tty or bool(os.environ.get("FORCE_COLOR")))


def format_finding(finding: Finding, style: TextStyle = TextStyle()) -> str:
    where = f"{where_in_file(finding)}:{finding.line}:{finding.column}:"
    if style.color:
        return f"{BOLD}{where}{RESET} {BOLD}{RED}{finding.code}{RESET} {finding.message}"
    return f"{where} {finding.code} {finding.message}"


def where_in_file(finding: Finding) -> str:
    """`train.py`, or `nb.ipynb:cell_3` for a notebook (its line counts inside the cell)."""
    return finding.path if finding.cell is None else f"{finding.path}:cell_{finding.cell}"


def format_block(finding: Finding, style: TextStyle = TextStyle()) -> str:
    """The finding's line, and with --show-source its source line and a caret under it."""
    text = format_finding(finding, style) + "\n"
    if not style.show_source or finding.cell is not None:  # a cell's line is not the file's
        return text
    source = linecache.getline(finding.path, finding.line).rstrip("\r\n")
    if not source:
        return text
    # The caret lines up under tabs too: keep each tab, blank out everything else.
    pad = "".join(c if c == "\t" else " " for c in source[: finding.column - 1])
    caret = f"{CYAN}^{RESET}" if style.color else "^"
    return text + f"    {source}\n    {pad}{caret}\n" + _reached_source(finding)


def _reached_source(finding: Finding) -> str:
    """A finding in code another file runs: that file's line too, under its name."""
    reached = finding.reached
    if reached is None or reached.path is None or reached.cell is not None:
        return ""
    line = linecache.getline(reached.path, reached.location.line).rstrip("\r\n")
    if not line:
        return ""
    return f"    {reached.path}:{reached.location.line}: {line.strip()}\n"


def render(result: RunResult, style: TextStyle = TextStyle(), quiet: bool = False) -> str:
    if result.diffs:
        return "".join(result.diffs) + ("" if quiet else _fix_summary(result, would=True) + "\n")
    return "".join(format_block(f, style) for f in result.findings) + ("" if quiet else summary(result))


def render_statistics(result: RunResult) -> str:
    """flake8's --statistics with ruff's rule names: count, code, name, and the first message
    of that code."""
    counts = Counter(f.code for f in result.findings)
    if not counts:
        return ""
    from devlint.lint.docs import find  # the rules' names; only when there is something to count

    first: dict[str, str] = {}
    for finding in result.findings:
        first.setdefault(finding.code, finding.message)
    names = {code: getattr(find(code), "name", "") for code in counts}
    width = max(map(len, names.values()))
    return "".join(f"{counts[code]:<5} {code} {names[code]:<{width}} {first[code]}\n"
                   for code in sorted(counts))


def summary(result: RunResult) -> str:
    """The lines after the findings: counts, what was fixed, what --fix would fix."""
    lines = []
    files = len({f.path for f in result.findings})
    n = len(result.findings)
    checked = f"{result.files_checked} file{'s' if result.files_checked != 1 else ''} checked"
    errors = len(result.errors)
    if errors:  # never "No findings": what failed was not checked
        failed = f"{errors} error{'s' if errors != 1 else ''}"
        lines.append(f"Found {n} finding{'s' if n != 1 else ''} and {failed} ({checked}).")
    elif n:
        lines.append(
            f"Found {n} finding{'s' if n != 1 else ''} in {files} file{'s' if files != 1 else ''} "
            f"({checked})."
        )
    else:
        lines.append(f"No findings ({checked}).")
    if result.fixed:
        lines.append(_fix_summary(result, would=False))
    else:
        fixable = sum(1 for f in result.findings if f.fix is not None)
        safe = sum(1 for f in result.findings if f.fix is not None
                   and f.fix.applicability.value == "safe")
        if fixable:
            hint = f"{safe} fixable with --fix" if safe else ""
            if fixable - safe:
                hint += (", " if hint else "") + f"{fixable - safe} more with --fix --unsafe-fixes"
            lines.append(f"[{hint}]")
    return "\n".join(lines) + "\n"


def _fix_summary(result: RunResult, would: bool) -> str:
    verb = "Would fix" if would else "Fixed"
    n, left = result.fixed, len(result.findings)
    return f"{verb} {n} finding{'s' if n != 1 else ''} ({left} remaining)."
