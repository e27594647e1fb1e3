"""Findings as LSP diagnostics, and the ranges they cover."""
from __future__ import annotations

from typing import Optional

from lsprotocol import types

from devlint.home import rule_docs_url
from devlint.lint.report.spans import token_extent
from devlint.lint.rules import PARSE_ERROR_CODE, RULES_BY_CODE
from devlint.server.analysis import Placed
from devlint.server.positions import PositionMap

SOURCE = "devlint"
# Yellow for device bugs, red only for a file Python rejects: the editor keeps red for code
# that cannot run at all, and these files run, on the CPU at least (ruff does the same).
SEVERITY = {PARSE_ERROR_CODE: types.DiagnosticSeverity.Error}
DEFAULT_SEVERITY = types.DiagnosticSeverity.Warning


def span(pmap: PositionMap, line: int, column: int) -> tuple[int, int]:
    """Offsets of the token a finding points at: its name, string or keyword. Findings carry
    only a start; a squiggle under one token shows where without painting whole statements."""
    start = pmap.offset_of_finding(line, column)
    skip, length = token_extent(pmap.text[start:pmap.line_end(line - 1)])
    return start + skip, start + skip + length


def lsp_range(pmap: PositionMap, start: int, end: int) -> types.Range:
    return types.Range(_position(pmap, start), _position(pmap, end))


def _position(pmap: PositionMap, offset: int) -> types.Position:
    line, character = pmap.position(offset)
    return types.Position(line=line, character=character)


def finding_range(pmap: PositionMap, placed: Placed) -> types.Range:
    return lsp_range(pmap, *span(pmap, placed.finding.line, placed.finding.column))


def diagnostic(placed: Placed, maps: dict[str, PositionMap]) -> types.Diagnostic:
    finding = placed.finding
    pmap = maps[placed.uri]
    related = None
    if finding.related is not None and placed.related_uri in maps:
        where = maps[placed.related_uri]
        location = finding.related.location
        related = [types.DiagnosticRelatedInformation(
            location=types.Location(placed.related_uri,
                                    lsp_range(where, *span(where, location.line, location.column))),
            message=finding.related.label,
        )]
    return types.Diagnostic(
        range=finding_range(pmap, placed),
        message=finding.message,
        severity=SEVERITY.get(finding.code, DEFAULT_SEVERITY),
        code=finding.code,
        code_description=_docs_link(finding.code),
        source=SOURCE,
        related_information=related,
    )


def _docs_link(code: str) -> Optional[types.CodeDescription]:
    """A link to the rule's page; none while the project has no home to link to."""
    href = rule_docs_url(code) if code in RULES_BY_CODE else None
    return types.CodeDescription(href=href) if href else None
