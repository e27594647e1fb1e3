"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request."""
from __future__ import annotations

from devlint.core.findings import Finding
from devlint.lint.report import RunResult


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_finding(finding: Finding) -> str:
    """A notebook's annotation names the .ipynb file at the place of the cell's line in its
    JSON text (where the diff shows it), and the cell and line in the message."""
    if finding.cell is None:
        place, text = f",line={finding.line},col={finding.column}", finding.message
    else:
        at = finding.in_file
        place = f",line={at.line},col={at.column}" if at is not None else ""
        text = f"(cell {finding.cell}, line {finding.line}) {finding.message}"
    return (f"::error file={_escape_property(finding.path)}{place},title={finding.code}::"
            f"{_escape_data(f'{finding.code} {text}')}")


def render(result: RunResult) -> str:
    lines = [format_finding(f) for f in result.findings]
    lines += [f"::error::{_escape_data(line)}" for line in result.errors]
    return "".join(line + "\n" for line in lines)
