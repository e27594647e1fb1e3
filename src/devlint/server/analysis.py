"""One open document's findings, computed from a snapshot of its text by the engine that
`devlint check` runs, and kept in a memo shared by every document.

A notebook is analysed as `devlint check` analyses an `.ipynb` file: its code cells joined
into one program, each finding then placed in the cell it points at.
"""
from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from devlint.core.findings import Finding, TextEdit
from devlint.core.selection import Selection
from devlint.workspace.cache import file_key

if TYPE_CHECKING:
    from devlint.workspace.notebook import Program

MEMO_ENTRIES = 256  # a few findings each: undo, redo and the other open documents hit


@dataclass(frozen=True)
class Cell:
    """A text document: a whole file, or one cell of a notebook."""

    uri: str
    version: Optional[int]
    text: str
    code: bool = True  # a Python code cell; markdown cells only count in the numbering


@dataclass(frozen=True)
class Snapshot:
    key: str  # the uri of the text document, or of the notebook
    generation: int  # bumped by every event that changes what the key holds
    path: Optional[Path]  # None for an unsaved document
    cells: tuple[Cell, ...]  # exactly one for a text document
    notebook: bool = False

    @property
    def label(self) -> str:
        return str(self.path) if self.path is not None else self.key


@dataclass(frozen=True)
class Placed:
    """A finding in the coordinates of the text document `uri` shows: its fix's edits are
    offsets into that text, and it has no fix where none can be offered there."""

    finding: Finding
    uri: str
    related_uri: str


@dataclass
class Analysis:
    snapshot: Snapshot
    placed: list[Placed]
    problem: str = ""  # a configuration the project's files could not use, for the log
    error: str = ""  # the internal error that stopped the analysis, with its traceback
    diagnostics: dict[str, list] = field(default_factory=dict)  # by uri, as the client gets them
    _fix_all: dict[str, tuple[TextEdit, ...]] = field(default_factory=dict)
    _gated: dict[int, Placed] = field(default_factory=dict)  # id(placed) -> as offered

    def text(self, uri: str) -> Optional[str]:
        return next((cell.text for cell in self.snapshot.cells if cell.uri == uri), None)

    def on(self, uri: str) -> list[Placed]:
        return [p for p in self.placed if p.uri == uri]

    def offered(self, placed: Placed) -> Placed:
        """`placed` with its fix only if the fix gate (`lint.fix_gate.refusal`) lets it through.
        A text document is analysed without the gate, which is most of an analysis with many
        findings (60% on a 1,000-line file with 16): diagnostics go out first, and each fix
        is gated once, when the editor asks for the code actions where it is. A notebook's
        fixes were gated on the joined program, as `devlint check` does."""
        if placed.finding.fix is None or self.snapshot.notebook:
            return placed
        key = id(placed)
        if key not in self._gated:
            from devlint.lint.fix_gate import refusal

            text = self.text(placed.uri)
            if text is None or refusal(text, placed.finding.fix.edits) is not None:
                placed = replace(placed, finding=replace(placed.finding, fix=None))
            self._gated[key] = placed
        return self._gated[key]

    def fix_all(self, uri: str) -> tuple[TextEdit, ...]:
        """The edits of every safe fix that applies together with the others; () when the
        result would not parse. Computed once per analysis: editors ask on every cursor move."""
        if uri not in self._fix_all:
            self._fix_all[uri] = self._safe_edits(uri)
        return self._fix_all[uri]

    def _safe_edits(self, uri: str) -> tuple[TextEdit, ...]:
        from devlint.lint.fix import apply_fixes

        text = self.text(uri)
        fixable = [p.finding for p in map(self.offered, self.on(uri)) if p.finding.fix is not None]
        if text is None or not fixable or self.snapshot.notebook:
            return ()  # a cell alone need not parse (magics), so its fixes cannot be checked
        outcome = apply_fixes(text, fixable, unsafe=False)
        if outcome.error:
            return ()
        # Findings that propose the same edit (one tuple move for `x` and `y`) share it once.
        return tuple(dict.fromkeys(edit for f in outcome.applied for edit in f.fix.edits))


class Memo:
    """Findings by the digest `devlint check`'s cache uses (text and selection), so undoing an
    edit, reopening a file or a second copy of it costs no analysis. As in that cache, an entry
    also keeps what the analysis stood on in other files of the project (the summaries of what
    it imports): editing `utils.py` in another window re-checks the open `train.py`. Used from
    one thread."""

    def __init__(self, size: int = MEMO_ENTRIES) -> None:
        self.size = size
        # the parsed top-level statements of the texts analysed: a keystroke re-parses its own
        from devlint.lint.parse import PieceParser

        self.pieces = PieceParser()
        self.entries: OrderedDict[tuple, tuple[list[Finding], Optional[list]]] = OrderedDict()

    def get(self, data: bytes, selection: Selection, compute: Callable[[], list[Finding]],
            kind: str = "python", path: str = "") -> list[Finding]:
        from devlint.lint.model.summaries import recording
        from devlint.workspace.project import portable, still_holds

        key = (file_key(data, selection, kind), path)
        entry = self.entries.get(key)
        if entry is not None and entry[1] is not None and not still_holds(path, entry[1], {}):
            entry = None  # an imported file changed on disk
        if entry is None:
            with recording() as used:
                found = compute()
            rows = portable(path, used.files, used.probes) if path and (
                used.files or used.probes) else None
            entry = self.entries[key] = (found, rows)
            if len(self.entries) > self.size:
                self.entries.popitem(last=False)
        self.entries.move_to_end(key)
        return entry[0]


_WORKER_MEMO: Optional[Memo] = None  # in a worker process (`server.workers`): its own memo


def analyze_in_worker(snapshot: Snapshot, selection: Optional[Selection]) -> list[Placed]:
    global _WORKER_MEMO
    if _WORKER_MEMO is None:
        _WORKER_MEMO = Memo()
    return analyze(snapshot, selection, _WORKER_MEMO)


def cannot_analyse_snapshot(snapshot: Snapshot, selection: Optional[Selection],
                            why: str) -> list[Placed]:
    """The DEV998 of a document whose analysis was stopped, on its first line (a notebook's
    first cell)."""
    from devlint.lint.analyze import cannot_analyse
    from devlint.core.limits import CANNOT_ANALYSE_CODE, Unanalysable

    if selection is None or not selection.enabled(CANNOT_ANALYSE_CODE):
        return []
    cell = snapshot.cells[0]
    finding = cannot_analyse(snapshot.label, Unanalysable(1, 1, why))
    return [Placed(replace(finding, cell=1) if snapshot.notebook else finding, cell.uri, cell.uri)]


def analyze(snapshot: Snapshot, selection: Optional[Selection], memo: Memo) -> list[Placed]:
    """The findings of a snapshot; none when its project excludes it (`selection` None)."""
    if selection is None:
        return []
    from devlint.workspace.importers import new_run

    new_run()  # files may have changed on disk since the last analysis
    if snapshot.notebook:
        return _analyze_notebook(snapshot, selection, memo)
    from devlint.lint.analyze import analyze_source

    cell = snapshot.cells[0]
    data = _bytes(cell.text)
    findings = memo.get(data, selection,
                        lambda: analyze_source(cell.text, snapshot.label, selection,
                                               pieces=memo.pieces, gate_fixes=False),
                        path=snapshot.label if snapshot.path is not None else "")
    return [Placed(f, cell.uri, cell.uri) for f in findings + _routed(snapshot, data, selection, findings)]


def _routed(snapshot: Snapshot, data: bytes, selection: Selection,
            own: list[Finding]) -> list[Finding]:
    """What the runs of the files importing this one show in its code, as `devlint check`
    reports it. Only for a buffer that holds what is on disk: those runs read the file there,
    so their lines are the saved file's (an unsaved edit shows them again at the next save)."""
    path = snapshot.path
    if path is None or not selection.project or path.suffix != ".py":
        return []
    try:
        if path.read_bytes() != data:
            return []
    except OSError:
        return []
    from devlint.lint.routed import routed_to
    from devlint.lint.runner import places

    seen = {place[1:] for f in own for place in places(f)}
    return [f for f in routed_to(str(path), selection)
            if (f.line, f.column, f.code) not in seen and selection.enabled(f.code)]


def _analyze_notebook(snapshot: Snapshot, selection: Selection, memo: Memo) -> list[Placed]:
    from devlint.lint.analyze import analyze_source
    from devlint.workspace.notebook import broken_cells, program

    prog = program({"cells": [
        {"cell_type": "code" if cell.code else "markdown", "source": cell.text}
        for cell in snapshot.cells
    ]})
    # The cells' numbers are not in the joined text, yet messages name them ("line 3 of cell 2"),
    # nor is what a cell that does not parse holds (its lines stand in as `pass`).
    layout = _bytes(prog.text) + repr((prog.cells, prog.broken)).encode()
    findings = memo.get(layout, selection, lambda: analyze_source(
        prog.text, snapshot.label, selection, describe_line=prog.describe, pieces=memo.pieces)
        + broken_cells(prog, snapshot.label, selection), "notebook")
    return [_in_cell(finding, prog, snapshot) for finding in findings]


def _in_cell(finding: Finding, prog: Program, snapshot: Snapshot) -> Placed:
    from devlint.workspace.notebook import to_cells
    from devlint.workspace.notebook_positions import NotebookText

    # An editor's notebook is no .ipynb text: positions in such a file are not wanted.
    in_cell = to_cells(finding, prog, NotebookText(""))
    number = in_cell.cell
    related = number
    if finding.related is not None:
        related = prog.locate(finding.related.location.line)[0]
    fix = finding.fix
    edits = _cell_edits(prog, snapshot.cells[number - 1].text, number, fix.edits) if fix else ()
    in_cell = replace(in_cell, fix=replace(fix, edits=edits) if edits else None)
    return Placed(in_cell, snapshot.cells[number - 1].uri, snapshot.cells[related - 1].uri)


def _cell_edits(prog: Program, text: str, number: int,
                edits: tuple[TextEdit, ...]) -> tuple[TextEdit, ...]:
    """A fix's edits, offsets into the joined program, as offsets into cell `number`'s text;
    () when one of them leaves that cell, touches an IPython line (the program holds a `pass`
    there) or lies in a cell whose indentation the program removed."""
    from devlint.lint.analyze import LineIndex

    if number in prog.indents:
        return ()
    first, count = next((f, c) for n, f, c in prog.cells if n == number)
    starts = LineIndex(prog.text).starts  # the program breaks lines at \n only
    lines = prog.text.split("\n")
    # The program split the cell with str.splitlines; its line numbers index these lines.
    cell_starts = list(accumulate((len(line) for line in text.splitlines(keepends=True)),
                                  initial=0))
    mapped = []
    for edit in edits:
        start_line, start_col = _line_and_column(starts, edit.start)
        end_line, end_col = _line_and_column(starts, edit.end)
        inner = [start_line - first, end_line - first]
        ends = zip(inner, (start_col, end_col))
        if not all(0 <= i < count or (i == count and column == 0) for i, column in ends):
            return ()  # outside the cell; its boundary line's start is the cell's end
        touched = range(start_line, end_line + (1 if end_col else 0))
        if any(lines[line - 1] in prog.placeholders for line in touched):
            return ()
        new = edit.text
        at_end = inner[0] == count and text and not text.endswith(("\n", "\r"))
        if at_end and new.endswith("\n"):
            new = "\n" + new[:-1]  # a line added after a last line that has no line break
        mapped.append(TextEdit(cell_starts[inner[0]] + start_col,
                               cell_starts[inner[1]] + end_col, new))
    return tuple(mapped)


def _line_and_column(starts: list[int], offset: int) -> tuple[int, int]:
    line = bisect_right(starts, offset)
    return line, offset - starts[line - 1]


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")
