"""Machine-readable output for scripts; its JSON Schema ships in the package as
`devlint/schemas/check-report.schema.json` (tested against this output).

Besides where a finding starts, a finding in a Python file says where the token it points at
ends (`end_line`, `end_column`, exclusive), and its fix lists its edits: each replaces the text
from `start` to `end` (1-based lines and columns, in code points, `end` exclusive) by
`content`. A notebook's finding has neither: its places count inside a cell."""
from __future__ import annotations

import json
from typing import Optional

from devlint import __version__
from devlint.core.findings import Finding
from devlint.lint.report import RunResult
from devlint.lint.report.spans import SourceText


def render(result: RunResult) -> str:
    sources: dict[str, Optional[SourceText]] = {}
    payload = {
        "tool": "devlint",
        "version": __version__,
        "files_checked": result.files_checked,
        "findings": [finding_dict(f, sources) for f in result.findings],
        "errors": result.errors,
        "fixed": result.fixed,
    }
    return json.dumps(payload, indent=2) + "\n"


def finding_dict(finding: Finding, sources: dict[str, Optional[SourceText]]) -> dict:
    out = finding.to_dict()
    if finding.cell is not None:
        return out
    if finding.path not in sources:
        sources[finding.path] = SourceText.of(finding.path)
    source = sources[finding.path]
    if source is None:
        return out
    out["end_line"], out["end_column"] = source.end_of(finding.line, finding.column)
    if finding.fix is not None and "fix" in out:
        out["fix"]["edits"] = [_edit(source, e) for e in finding.fix.edits]
    return _ordered(out)


def _edit(source: SourceText, edit) -> dict:
    (line, column), (end_line, end_column) = source.place(edit.start), source.place(edit.end)
    return {"start": {"line": line, "column": column},
            "end": {"line": end_line, "column": end_column}, "content": edit.text}


def _ordered(out: dict) -> dict:
    """`end_line` and `end_column` right after `column`, where a reader looks for them."""
    keys = list(out)
    at = keys.index("column") + 1
    keys = keys[:at] + ["end_line", "end_column"] + [k for k in keys[at:] if not k.startswith("end_")]
    return {key: out[key] for key in keys}
