"""Code actions (each fix as a quick fix, "fix all safe findings", `# noqa`) and hover."""
from __future__ import annotations

from typing import Optional, Sequence

from lsprotocol import types

from devlint.home import rule_docs_url
from devlint.core.findings import Applicability, TextEdit
from devlint.lint.noqa import noqa_edit as lint_noqa_edit
from devlint.lint.rules import PARSE_ERROR_CODE, RULES_BY_CODE
from devlint.server.analysis import Analysis, Placed
from devlint.server.diagnostics import diagnostic, finding_range, lsp_range
from devlint.server.positions import PositionMap

FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.devlint"
FIX_ALL_TITLE = "Fix all safe devlint findings in this file"


class Client:
    """What the client agreed to: the unit of its positions, and whether it takes versioned
    document changes (then an edit computed for an older text is refused, not misapplied)."""

    def __init__(self, encoding: str = "utf-16", versioned: bool = False) -> None:
        self.encoding = encoding
        self.versioned = versioned

    def edit(self, uri: str, version: Optional[int], pmap: PositionMap,
             edits: Sequence[TextEdit]) -> types.WorkspaceEdit:
        lsp_edits = [types.TextEdit(lsp_range(pmap, e.start, e.end), e.text) for e in edits]
        if self.versioned:
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
                types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                lsp_edits,
            )])
        return types.WorkspaceEdit(changes={uri: lsp_edits})


def code_actions(analysis: Analysis, uri: str, version: Optional[int], wanted: types.Range,
                 only: Optional[Sequence[str]], client: Client) -> list[types.CodeAction]:
    text = analysis.text(uri)
    if text is None:
        return []
    maps = {cell.uri: PositionMap(cell.text, client.encoding) for cell in analysis.snapshot.cells}
    pmap = maps[uri]
    here = [analysis.offered(p) for p in analysis.on(uri) if _overlaps(finding_range(pmap, p), wanted)]
    actions = []
    for placed in here:
        diag = diagnostic(placed, maps)
        if placed.finding.fix is not None:
            edit = client.edit(uri, version, pmap, placed.finding.fix.edits)
            actions.append(_quick_fix(placed, diag, edit))
        if placed.finding.code == PARSE_ERROR_CODE:
            continue  # a syntax error is fixed, not silenced
        noqa = noqa_edit(text, pmap, placed.finding.line, placed.finding.code)
        if noqa is not None:
            actions.append(types.CodeAction(
                title=f"{placed.finding.code}: disable for this line (# noqa)",
                kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                edit=client.edit(uri, version, pmap, [noqa]),
            ))
    # In the light bulb next to a safely fixable finding, and as the source action that
    # `editor.codeActionsOnSave` asks for.
    kind = FIX_ALL if _asks_for(only, FIX_ALL) else None
    if kind is None and any(_safe(p) for p in here):
        kind = types.CodeActionKind.QuickFix
    fix_all = analysis.fix_all(uri) if kind is not None else ()
    if fix_all:
        actions.append(types.CodeAction(title=FIX_ALL_TITLE, kind=kind,
                                        edit=client.edit(uri, version, pmap, fix_all)))
    return [a for a in actions if only is None or _asks_for(only, a.kind)]


def _quick_fix(placed: Placed, diag: types.Diagnostic,
               edit: types.WorkspaceEdit) -> types.CodeAction:
    fix = placed.finding.fix
    safe = _safe(placed)
    title = f"{placed.finding.code}: {fix.description}"
    if not safe:
        # LSP has no notion of an unsafe fix; the title says it and it is never preferred, so
        # no "auto fix" keybinding applies it unread.
        title += " (unsafe: moves code, review it)"
    return types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                            edit=edit, is_preferred=safe)


def _safe(placed: Placed) -> bool:
    return placed.finding.fix is not None and placed.finding.fix.applicability is Applicability.SAFE


def _asks_for(only: Optional[Sequence[str]], kind: str) -> bool:
    """LSP's kind hierarchy: asking for `source` includes `source.fixAll.devlint`."""
    return only is not None and any(kind == o or kind.startswith(f"{o}.") for o in only)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def noqa_edit(text: str, pmap: PositionMap, line: int, code: str) -> Optional[TextEdit]:
    """`  # noqa: CODE` at the end of a finding's line, or CODE added to the noqa already there;
    None where a comment cannot go (`devlint.lint.noqa`)."""
    return lint_noqa_edit(text, pmap.offset_of_finding(line, 1), pmap.line_end(line - 1), line, code)


def hover(analysis: Analysis, uri: str, at: types.Position,
          client: Client) -> Optional[types.Hover]:
    """The docs of each rule whose finding covers the position."""
    text = analysis.text(uri)
    if text is None:
        return None
    pmap = PositionMap(text, client.encoding)
    here = [p for p in analysis.on(uri) if _overlaps(finding_range(pmap, p), types.Range(at, at))]
    if not here:
        return None
    parts = [_rule_hover(code, [p.finding.message for p in here if p.finding.code == code])
             for code in dict.fromkeys(p.finding.code for p in here)]
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                    value="\n\n---\n\n".join(parts)),
                       range=finding_range(pmap, here[0]))


def _rule_hover(code: str, messages: list[str]) -> str:
    said = "\n\n".join(f"**{code}** {message}" for message in messages)
    rule = RULES_BY_CODE.get(code)
    if rule is None:  # DEV999: the message is all there is
        return said
    link = rule_docs_url(code)
    return f"{said}\n\n---\n\n{rule.docs()}" + (f"\n[{code} documentation]({link})" if link else "")
