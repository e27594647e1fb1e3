"""flake8-style lines: `path:line:col: CODE message`, then a summary line."""
from __future__ import annotations

from devlint.findings import Finding
from devlint.report import RunResult


def format_finding(finding: Finding) -> str:
    return f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.message}"


def render(result: RunResult) -> str:
    lines = [format_finding(f) for f in result.findings]
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
    return "\n".join(lines) + "\n"
