"""GitLab Code Quality (a JSON array of issues in the Code Climate format): findings show in
the merge request's widget and diff. In `.gitlab-ci.yml`, `artifacts: reports: codequality:`
names the file (docs/ci.md). Paths are relative to the working directory, the repository's root
in a CI job; a notebook's issue lies at its cell's line in the .ipynb text."""
from __future__ import annotations

import json
import os
from pathlib import Path

from devlint.core.findings import Finding
from devlint.lint.report import RunResult
from devlint.lint.report.sarif import Fingerprints

FILE_CODES_SEVERITY = {"DEV998": "critical", "DEV999": "critical"}  # the file was not checked


def render(result: RunResult) -> str:
    fingerprints = Fingerprints()
    return json.dumps([_issue(f, fingerprints) for f in result.findings], indent=2) + "\n"


def _issue(finding: Finding, fingerprints: Fingerprints) -> dict:
    from devlint.workspace.cache import blake2b

    path = _relative(finding.path)
    if finding.cell is None:
        line, text = finding.line, finding.message
    else:
        line = finding.in_file.line if finding.in_file is not None else 1
        text = f"(cell {finding.cell}, line {finding.line}) {finding.message}"
    # unique in the report, and stable while the flagged line's text is (SARIF's line hash)
    fingerprint = blake2b(f"{path}\0{fingerprints.of(finding)}".encode("utf-8", "replace"),
                          digest_size=16).hexdigest()
    return {
        "type": "issue",
        "check_name": finding.code,
        "description": f"{finding.code} {text}",
        "categories": ["Bug Risk"],
        "severity": FILE_CODES_SEVERITY.get(finding.code, "major"),
        "fingerprint": fingerprint,
        "location": {"path": path, "lines": {"begin": line, "end": line}},
    }


def _relative(path: str) -> str:
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return absolute.as_posix()
