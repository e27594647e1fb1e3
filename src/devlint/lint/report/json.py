"""Machine-readable output for scripts; its JSON Schema ships in the package as
`devlint/schemas/check-report.schema.json` (tested against this output)."""
from __future__ import annotations

import json

from devlint import __version__
from devlint.lint.report import RunResult


def render(result: RunResult) -> str:
    payload = {
        "tool": "devlint",
        "version": __version__,
        "files_checked": result.files_checked,
        "findings": [f.to_dict() for f in result.findings],
        "errors": result.errors,
        "fixed": result.fixed,
    }
    return json.dumps(payload, indent=2) + "\n"
