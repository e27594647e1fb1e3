"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request."""
from __future__ import annotations

from devlint.lint.findings import Finding
from devlint.lint.report import RunResult


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_finding(finding: Finding) -> str:
    return (f"::error file={_escape_property(finding.path)},line={finding.line},"
            f"col={finding.column},title={finding.code}::"
            f"{_escape_data(f'{finding.code} {finding.message}')}")


def render(result: RunResult) -> str:
    lines = [format_finding(f) for f in result.findings]
    lines += [f"::error::{_escape_data(line)}" for line in result.errors]
    return "".join(line + "\n" for line in lines)
