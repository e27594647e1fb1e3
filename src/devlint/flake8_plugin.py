"""flake8 plugin: `flake8 --select DEV` reports what `devlint check` reports.

A thin adapter over `devlint.lint.analyze`. Importing this module costs nothing: flake8 loads every
installed plugin on every run, and most files it checks contain no PyTorch code, so libcst and
the rules are imported only when `devlint.lint.prefilter` says a file can hold a finding. Selection,
`# noqa`, per-file ignores and parallelism are flake8's own, as for any plugin; under flake8,
`[tool.devlint]` in pyproject.toml is not read.
"""
from __future__ import annotations

from typing import Any, Iterator, Sequence

from devlint import __version__
from devlint.lint.prefilter import REQUIREMENTS, could_match

class DevlintChecker:
    """flake8 tree plugin (codes DEV001-DEV014; flake8 reports syntax errors itself as E999)."""

    name = "devlint"
    version = __version__

    def __init__(self, tree: Any, lines: Sequence[str], filename: str) -> None:
        # flake8 wants `tree` to classify this as a tree plugin; devlint parses with libcst.
        self.lines = lines
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        text = "".join(self.lines)
        if not could_match(text, REQUIREMENTS):
            return
        from devlint.lint.analyze import analyze_source
        from devlint.lint.selection import Selection

        # DEV999 would repeat flake8's E999 (and flake8 skips files that do not parse).
        selection = Selection(select=("DEV",), ignore=("DEV999",))
        for finding in analyze_source(text, self.filename, selection):
            # devlint columns are 1-based, flake8's are 0-based.
            yield finding.line, finding.column - 1, f"{finding.code} {finding.message}", type(self)
