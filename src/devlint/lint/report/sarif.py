"""SARIF 2.1.0 for GitHub code scanning and other SARIF viewers: one run, every rule as a
reportingDescriptor carrying its docs, results with regions, related locations and fixes."""
from __future__ import annotations

import json
import os
from pathlib import Path

from devlint import __version__
from devlint.lint.findings import Finding
from devlint.lint.report import RunResult

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
DOCS_URL = "https://github.com/devlint/devlint/blob/main/docs/rules/{code}.md"


def render(result: RunResult) -> str:
    from devlint.lint.rules import ALL_RULES, PARSE_ERROR_CODE

    rules = [_descriptor(rule) for rule in ALL_RULES] + [{
        "id": PARSE_ERROR_CODE, "name": "parse-error",
        "shortDescription": {"text": "The file cannot be read or parsed as Python."},
        "defaultConfiguration": {"level": "error"},
    }]
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    run = {
        "tool": {"driver": {
            "name": "devlint", "version": __version__, "semanticVersion": __version__,
            "informationUri": "https://github.com/devlint/devlint", "rules": rules,
        }},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, index) for f in result.findings],
        "invocations": [{
            "executionSuccessful": not result.errors,
            "toolExecutionNotifications": [
                {"level": "error", "message": {"text": line}} for line in result.errors
            ],
        }],
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"


def _descriptor(rule) -> dict:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": " ".join(rule.what.split())},
        "help": {"text": rule.docs(), "markdown": rule.docs()},
        "helpUri": DOCS_URL.format(code=rule.code),
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["pytorch", "device-placement"]},
    }


def _artifact(path: str) -> dict:
    """Paths under the working directory are relative to %SRCROOT% (what code scanning maps
    to the repository); others are absolute file URIs."""
    absolute = Path(os.path.abspath(path))
    try:
        return {"uri": absolute.relative_to(Path.cwd()).as_posix(), "uriBaseId": "%SRCROOT%"}
    except ValueError:
        return {"uri": absolute.as_uri()}


def _location(path: str, line: int, column: int) -> dict:
    path, cell = _split_cell(path)
    location = {"physicalLocation": {
        "artifactLocation": _artifact(path),
        "region": {"startLine": line, "startColumn": column},
    }}
    if cell:
        # SARIF has no notion of cells: the cell is named here, its lines count from its start.
        location["logicalLocations"] = [{"name": cell, "kind": "module"}]
    return location


def _split_cell(path: str) -> tuple[str, str]:
    """`nb.ipynb:cell_3` -> (`nb.ipynb`, `cell_3`)."""
    head, _, cell = path.rpartition(".ipynb:")
    return (head + ".ipynb", cell) if head else (path, "")


def _result(finding: Finding, index: dict[str, int]) -> dict:
    out = {
        "ruleId": finding.code,
        "ruleIndex": index.get(finding.code, 0),
        "level": "error",
        "message": {"text": finding.message},
        "locations": [_location(finding.path, finding.line, finding.column)],
    }
    if finding.related is not None:
        related = _location(finding.path, finding.related.location.line,
                            finding.related.location.column)
        related.update(id=1, message={"text": finding.related.label})
        out["relatedLocations"] = [related]
    # A notebook's edits point into its joined cells, not into the JSON file: not offered.
    if finding.fix is not None and finding.fix.edits and not _split_cell(finding.path)[1]:
        out["fixes"] = [{
            "description": {"text": finding.fix.description},
            "artifactChanges": [{
                "artifactLocation": _artifact(finding.path),
                "replacements": [{
                    "deletedRegion": {"charOffset": e.start, "charLength": e.end - e.start},
                    "insertedContent": {"text": e.text},
                } for e in finding.fix.edits],
            }],
        }]
    return out
