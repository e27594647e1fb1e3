"""flake8-style lines: `path:line:col: CODE message`, then a summary line."""
from __future__ import annotations

from devlint.findings import Finding
from devlint.report import RunResult


def format_finding(finding: Finding) -> str:
    return f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.message}"


def render(result: RunResult) -> str:
    if result.diffs:
        return "".join(result.diffs) + _fix_summary(result, would=True) + "\n"
    return "".join(format_finding(f) + "\n" for f in result.findings) + summary(result)


def summary(result: RunResult) -> str:
    """The lines after the findings: counts, what was fixed, what --fix would fix."""
    lines = []
    files = len({f.path for f in result.findings})
    n = len(result.findings)
    checked = f"{result.files_checked} file{'s' if result.files_checked != 1 else ''} checked"
    if n:
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
