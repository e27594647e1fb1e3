"""SARIF 2.1.0 for GitHub code scanning and other SARIF viewers: one run, every rule as a
reportingDescriptor carrying its docs, results with regions, related locations and fixes."""
from __future__ import annotations

import json
import os
from pathlib import Path

from devlint import __version__
from devlint.home import home_url, rule_docs_url
from devlint.core.findings import Finding
from devlint.lint.report import RunResult

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def render(result: RunResult) -> str:
    from devlint.lint.docs import entries

    rules = [_descriptor(entry) for entry in entries()]
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    fingerprints = Fingerprints()
    driver = {"name": "devlint", "version": __version__, "semanticVersion": __version__,
              "informationUri": home_url(), "rules": rules}
    run = {
        "tool": {"driver": _present(driver)},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, index, fingerprints) for f in result.findings],
        "invocations": [{
            "executionSuccessful": not result.errors,
            "toolExecutionNotifications": [
                {"level": "error", "message": {"text": line}} for line in result.errors
            ],
        }],
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"


def _descriptor(rule) -> dict:
    from devlint.lint.docs import page

    docs = page(rule)
    return _present({
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": " ".join(rule.what.split())},
        "help": {"text": docs, "markdown": docs},
        "helpUri": rule_docs_url(rule.code),  # left out while the project has no home
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["pytorch", "device-placement"]},
    })


def _present(fields: dict) -> dict:
    """The fields that have a value: a URL field is left out, never empty, when unknown."""
    return {key: value for key, value in fields.items() if value is not None}


def _artifact(path: str) -> dict:
    """Paths under the working directory are relative to %SRCROOT% (what code scanning maps
    to the repository); others are absolute file URIs."""
    absolute = Path(os.path.abspath(path))
    try:
        return {"uri": absolute.relative_to(Path.cwd()).as_posix(), "uriBaseId": "%SRCROOT%"}
    except ValueError:
        return {"uri": absolute.as_uri()}


def _location(path: str, line: int, column: int, cell=None, in_file=None) -> dict:
    """A region in the file as a viewer opens it: for a notebook, the place in the .ipynb's
    JSON text (or no region, when it is unknown), with the cell as a logical location and the
    line and column inside the cell as properties."""
    physical: dict = {"artifactLocation": _artifact(path)}
    if cell is None:
        physical["region"] = {"startLine": line, "startColumn": column}
    elif in_file is not None:
        physical["region"] = {"startLine": in_file.line, "startColumn": in_file.column}
    location: dict = {"physicalLocation": physical}
    if cell is not None:
        location["logicalLocations"] = [{"name": f"cell {cell}", "kind": "module"}]
        location["properties"] = {"cell": cell, "lineInCell": line, "columnInCell": column}
    return location


class Fingerprints:
    """`partialFingerprints.primaryLocationLineHash`: a hash of the code and the flagged line's
    text (whitespace trimmed), not of its number, so that code scanning keeps an alert as the
    same alert when lines are added above it; `:N` tells apart the Nth identical line of a file,
    as GitHub's own hashes do. A notebook's line is its line in the .ipynb text."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], int] = {}

    def of(self, finding: Finding) -> str:
        import linecache

        from devlint.workspace.cache import blake2b

        line = finding.line if finding.cell is None else finding.in_file.line if finding.in_file else 0
        linecache.checkcache(finding.path)  # a file edited since it was last read here
        text = linecache.getline(finding.path, line).strip() or finding.message
        digest = blake2b(f"{finding.code}\0{text}".encode("utf-8", "replace"), digest_size=8).hexdigest()
        key = (finding.path, digest)
        self.seen[key] = self.seen.get(key, 0) + 1
        return f"{digest}:{self.seen[key]}"


def _result(finding: Finding, index: dict[str, int], fingerprints: Fingerprints) -> dict:
    out = {
        "ruleId": finding.code,
        "ruleIndex": index.get(finding.code, 0),
        "level": "error",
        "message": {"text": finding.message},
        "partialFingerprints": {"primaryLocationLineHash": fingerprints.of(finding)},
        "locations": [_location(finding.path, finding.line, finding.column, finding.cell,
                                finding.in_file)],
    }
    related = []
    # the second: a call in the file that ran it; then the places of the same root cause
    for r in (finding.related, finding.reached, *finding.same_cause):
        if r is not None:
            place = _location(r.path or finding.path, r.location.line, r.location.column, r.cell,
                              r.in_file)
            place.update(id=len(related) + 1, message={"text": r.label})
            related.append(place)
    if related:
        out["relatedLocations"] = related
    # A notebook's edits point into its joined cells, not into the JSON file: not offered.
    if finding.fix is not None and finding.fix.edits and finding.cell is None:
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
