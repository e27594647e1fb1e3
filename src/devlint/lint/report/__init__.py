"""Output formats. Each takes the run's result and returns text for stdout."""
from __future__ import annotations

from dataclasses import dataclass, field

from devlint.core.findings import Finding


@dataclass
class RunResult:
    findings: list[Finding] = field(default_factory=list)
    files_checked: int = 0
    errors: list[str] = field(default_factory=list)  # one line each, already on stderr
    fixed: int = 0  # findings that --fix removed (or that --diff would remove)
    diffs: list[str] = field(default_factory=list)  # --diff: what --fix would write
    rewritten: list[str] = field(default_factory=list)  # files --fix replaced, in order
