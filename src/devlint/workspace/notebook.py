"""Jupyter notebooks: the code cells, in order, checked as one program (a model moved in cell 2
and a loop in cell 5 meet as they do when the notebook runs), reported per cell as
`nb.ipynb:cell_5:3:9` (the finding's path is the file, its cell a field of its own, and
`in_file` the place in the JSON text), and fixed by rewriting only the cells a fix changed.

IPython lines (`%time`, `!pip install`, `x = !ls`, `obj?`, and a line magic without its `%`
that Python refuses, `cd ..`, which IPython's automagic runs) become `pass` with the same
indentation while checking, so positions do not move; a cell magic (`%%bash`) hides its cell.
Only a line that starts a statement can be an IPython line: `% 0.5)` continuing a bracket, or
`!= b` continuing a condition, is Python. Cells are numbered from 1 in notebook order,
markdown cells included, as Jupyter shows them.

Jupyter runs cells one by one, so a cell that does not parse fails alone and the others still
run: such a cell (pasted log text, a shell line without its `!`) is one DEV999 at its own line,
and the program is the other cells, the broken one's lines standing in as `pass`.

A fix rewrites the JSON text in place: the `source` of a changed cell is replaced, keeping the
file's escapes, line endings and indentation, and every other byte stays as it was.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterator, Optional, Sequence

from devlint.core.codes import NOT_FETCHED, lfs_pointer
from devlint.core.findings import Finding, Location, Related, TextEdit
from devlint.core.lines import NEWLINE, split_lines, surviving_lines
from devlint.core.selection import Selection

if TYPE_CHECKING:
    from devlint.workspace.notebook_positions import NotebookText

BOUNDARY = "# devlint: cell boundary"
_IPYTHON_LINE = re.compile(
    r"^\s*(?:[%!]|\?|[\w.*]+\?\??\s*(?:#.*)?$|[\w.,\s()\[\]]+=\s*[%!])"
)
_BOM = b"\xef\xbb\xbf"
# IPython's line magics and its POSIX shell aliases: at the start of an unindented line, with
# automagic on (IPython's default), `cd ..` runs `%cd ..`. Only a line Python refuses is one.
_AUTOMAGIC = re.compile(
    r"^(?:cd|ls|ll|pwd|cat|cp|mv|rm|rmdir|mkdir|pip|conda|mamba|uv|env|set_env|load_ext|"
    r"reload_ext|unload_ext|autoreload|aimport|matplotlib|pylab|time|timeit|prun|run|who|whos|"
    r"reset|history|hist|pushd|popd|dhist|bookmark|alias|unalias|sx|sc|system|store|config|"
    r"precision|xmode|colors|pdb|debug|tb|load|save|edit|writefile|pinfo|pinfo2|psource|pdoc|"
    r"pdef|pycat|less|more|page|lsmagic|magic|rehashx|autosave|gui|capture)(?:\s+[^\s=,].*)?\s*$"
)


def automagic(line: str) -> bool:
    """Whether IPython runs an unindented `line` as a line magic (automagic, on by default):
    `run train.py`, `cd ..`. A cell made of such a line is no syntax error there."""
    return _AUTOMAGIC.match(line) is not None


class NotebookError(Exception):
    pass


@dataclass
class Program:
    """The code cells joined, and where each one starts."""

    text: str
    cells: list[tuple[int, int, int]] = field(default_factory=list)  # (cell no, first line, lines)
    placeholders: dict[str, str] = field(default_factory=dict)  # `pass  # devlint-ipython-N` -> line
    indents: dict[int, str] = field(default_factory=dict)  # cell no -> the indent IPython strips
    sources: dict[int, list[str]] = field(default_factory=dict)  # cell no -> its lines, as written
    broken: dict[int, tuple[int, int, str]] = field(default_factory=dict)  # cell no -> (program line, column, why)

    def locate(self, line: int) -> tuple[int, int]:
        """(cell number, line inside the cell) of a line of the joined text."""
        for number, first, count in reversed(self.cells):
            if line >= first:
                return number, min(line - first + 1, max(count, 1))
        return (self.cells[0][0] if self.cells else 1), line

    def cell_of(self, line: int) -> int:
        """The cell a line of the joined text belongs to: a cell runs on its own."""
        return self.locate(line)[0]

    def describe(self, line: int) -> str:
        number, inner = self.locate(line)
        return f"{inner} of cell {number}"


def load(data: bytes) -> dict:
    if lfs_pointer(data):
        raise NotebookError(f"not a notebook: {NOT_FETCHED}")
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = "nesting too deep" if isinstance(exc, RecursionError) else exc
        raise NotebookError(f"not a notebook: {reason}") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotebookError("not a notebook: no list of cells")
    for number, cell in enumerate(notebook["cells"], start=1):
        source = cell.get("source", "") if isinstance(cell, dict) else None
        if not (isinstance(source, str) or (
                isinstance(source, list) and all(isinstance(part, str) for part in source))):
            raise NotebookError(f"not a notebook: cell {number} has no source text "
                                "(a string, or a list of strings)")
    return notebook


def language(notebook: dict) -> Optional[str]:
    """The language the notebook's kernel runs, lower-cased, where its metadata says
    (`kernelspec.language`, else `language_info.name`); None when it does not."""
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict):
        return None
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(field), str) and section[field]:
            return section[field].lower()
    return None


def runs_python(notebook: dict) -> bool:
    """Whether the notebook's cells are Python: a Julia or R kernel's are not, and nothing in
    them is devlint's to check (not even as a syntax error)."""
    return language(notebook) in (None, "python", "python3")


def cell_source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def program(notebook: dict) -> Program:
    prog = Program("")
    parts: list[str] = []
    line = 1
    for number, cell in enumerate(notebook["cells"], start=1):
        if cell.get("cell_type") != "code":
            continue
        prog.sources[number] = split_lines(cell_source(cell), keepends=True)
        lines = [NEWLINE.sub("", text, count=1) for text in prog.sources[number]]
        # IPython drops a cell's leading blank lines, then runs ` x = 1\n y = 2` as if
        # unindented: the indent of the first line with code goes from every line with it.
        first = next((text for text in lines if text.strip()), "")
        indent = re.match(r"[ \t]*", first).group()
        if indent:
            prog.indents[number] = indent
            lines = [text[len(indent):] if text.startswith(indent) else text for text in lines]
        # a cell magic after comment lines (`# Unit tests` then `%%shell`, as Colab runs
        # yolov5's tutorial) still makes the whole cell another language
        magic = next((text for text in lines if text.strip() and not text.lstrip().startswith("#")), "")
        if magic.lstrip().startswith("%%"):
            lines = [_placeholder(prog, text, "") for text in lines]  # the cell is not Python
        else:
            lines = list(_hide_ipython_lines(prog, lines))
            problem = _syntax_error("".join(text + "\n" for text in lines))
            while problem is not None and 0 < problem[0] <= len(lines) and \
                    _AUTOMAGIC.match(lines[problem[0] - 1]):
                # `cd ..`, `pip install x`, `matplotlib inline`: a line magic without its `%`,
                # which IPython's automagic (on by default) runs
                lines[problem[0] - 1] = _placeholder(prog, lines[problem[0] - 1], "")
                problem = _syntax_error("".join(text + "\n" for text in lines))
            if problem is not None:  # it fails alone when it runs; the other cells still run
                inner, column, why = problem
                prog.broken[number] = (line + min(inner, max(len(lines), 1)) - 1, column, why)
                lines = [_placeholder(prog, prog.placeholders.get(text, text), "") for text in lines]
        prog.cells.append((number, line, len(lines)))
        parts.extend(text + "\n" for text in lines)
        parts.append(BOUNDARY + "\n")
        line += len(lines) + 1
    prog.text = "".join(parts)
    return prog


def _syntax_error(text: str) -> Optional[tuple[int, int, str]]:
    """(line, column, why) where Python refuses a cell's text, as Jupyter would run it alone."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            ast.parse(text)
    except SyntaxError as exc:
        return exc.lineno or 1, exc.offset or 1, exc.msg
    except (ValueError, RecursionError, MemoryError) as exc:
        return 1, 1, str(exc) or type(exc).__name__
    return None


def broken_cells(prog: Program, path: str, selection: Selection) -> list[Finding]:
    """One DEV999 per cell that does not parse, in the joined program's coordinates."""
    if not prog.broken or not selection.enabled("DEV999"):
        return []
    return [Finding(path, line, column, "DEV999", f"cannot parse: {why}")
            for line, column, why in prog.broken.values()]


def _hide_ipython_lines(prog: Program, lines: list[str]) -> Iterator[str]:
    scanner = _Continuation()
    magic_indent = None  # the indent of an IPython line a backslash continues (`!pip install \`)
    for text in lines:
        if magic_indent is not None:
            yield _placeholder(prog, text, magic_indent)
        elif scanner.at_statement_start() and _IPYTHON_LINE.match(text):
            magic_indent = re.match(r"\s*", text).group()
            yield _placeholder(prog, text, magic_indent)
        else:
            scanner.feed(text)
            yield text
            continue
        if not text.endswith("\\"):
            magic_indent = None


TRIPLE_QUOTES = ("'''", '"""')


class _Continuation:
    """Whether the next line starts a statement: not inside brackets, a string, or after a
    backslash. A light scan, not the tokenizer: IPython lines are not Python."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote = ""  # the quote of a string still open at the end of the last line
        self.backslash = False

    def at_statement_start(self) -> bool:
        return self.depth == 0 and not self.quote and not self.backslash

    def feed(self, line: str) -> None:
        i, n = 0, len(line)
        self.backslash = False
        while i < n:
            if self.quote:
                i = self._past_string(line, i)
                continue
            char = line[i]
            if char == "#":
                break
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            elif char in "'\"":
                self.quote = line[i:i + 3] if line[i:i + 3] in TRIPLE_QUOTES else char
                i += len(self.quote)
                continue
            elif char == "\\" and i == n - 1:
                self.backslash = True
            i += 1
        if len(self.quote) == 1 and not self.backslash:
            self.quote = ""  # a one-quote string ends with its line unless a backslash goes on

    def _past_string(self, line: str, i: int) -> int:
        while i < len(line):
            if line[i] == "\\":
                if i == len(line) - 1:
                    self.backslash = True
                i += 2
            elif line.startswith(self.quote, i):
                end = i + len(self.quote)
                self.quote = ""
                return end
            else:
                i += 1
        return i


def _placeholder(prog: Program, original: str, indent: str) -> str:
    token = f"{indent}pass  # devlint-ipython-{len(prog.placeholders)}"
    prog.placeholders[token] = original
    return token


def in_cells(findings: list[Finding], prog: Program, data: bytes) -> list[Finding]:
    """Findings of the joined program, placed in their cells and in the notebook's text."""
    if not findings:
        return []
    from devlint.workspace.notebook_positions import NotebookText

    text = NotebookText(data.decode("utf-8-sig"))
    return [to_cells(f, prog, text) for f in findings]


def to_cells(finding: Finding, prog: Program, text: "NotebookText") -> Finding:
    number, line = prog.locate(finding.line)
    column = finding.column + len(prog.indents.get(number, ""))  # columns as the cell shows them
    related = finding.related
    if related is not None:
        cell, inner = prog.locate(related.location.line)
        rcolumn = related.location.column + len(prog.indents.get(cell, ""))
        related = Related(Location(inner, rcolumn), f"{related.label} (cell {cell})", cell,
                          text.locate(cell, inner, rcolumn))
    return replace(finding, line=line, column=column, related=related, cell=number,
                   in_file=text.locate(number, line, column))


# --- from the fixed program back to cells ----------------------------------------------------


def restore(prog: Program, fixed: str, edits: Sequence[TextEdit]):
    """Each cell's new lines as (text, index of the original line it is, or None). A line no
    edit touched is the cell's own line, byte for byte (its indent, its line break, the inside
    of a string); a line a fix wrote gets the cell's indent and line break."""
    lines = split_lines(fixed)
    origin: list[Optional[tuple[int, int]]] = [None] * len(lines)
    for new, old in surviving_lines(prog.text, edits, fixed).items():
        origin[new] = _cell_line(prog, old)
    boundaries = [i for i, where in enumerate(origin) if where is not None and where[1] < 0]
    if len(boundaries) != len(prog.cells):
        return None
    cells: dict[int, list[tuple[str, Optional[int]]]] = {}
    start = 0
    for (number, _, _), end in zip(prog.cells, boundaries):
        if any(where is not None and where[0] != number for where in origin[start:end + 1]):
            return None
        cells[number] = _cell_lines(prog, number, lines[start:end], origin[start:end])
        start = end + 1
    return cells


def _cell_line(prog: Program, line: int) -> Optional[tuple[int, int]]:
    """(cell number, index in the cell, -1 for the boundary after it) of program line `line`
    (from 0)."""
    for number, first, count in prog.cells:
        if first - 1 <= line <= first - 1 + count:
            index = line - (first - 1)
            return number, (index if index < count else -1)
    return None


def _cell_lines(prog: Program, number: int, lines: list[str],
                origin: list[Optional[tuple[int, int]]]) -> list[tuple[str, Optional[int]]]:
    original = prog.sources[number]
    breaks = [match.group() for match in map(NEWLINE.search, original) if match]
    newline = breaks[0] if breaks else "\n"
    indent = prog.indents.get(number, "")
    out: list[tuple[str, Optional[int]]] = []
    for text, where in zip(lines, origin):
        if where is not None:
            out.append((original[where[1]], where[1]))
        else:
            text = prog.placeholders.get(text, text)
            out.append(((indent + text if indent and text else text) + newline, None))
    for i, (text, where) in enumerate(out[:-1]):
        if not NEWLINE.search(text):  # the cell's last line, no longer last
            out[i] = (text + newline, None)
    if out and original and not NEWLINE.search(original[-1]) and NEWLINE.search(out[-1][0]):
        out[-1] = (NEWLINE.sub("", out[-1][0], count=1), None)  # as the cell ended, unterminated
    return out


# --- writing the changed sources into the JSON text ------------------------------------------


def rewrite_sources(data: bytes, changed: dict[int, list[tuple[str, Optional[int]]]]) -> bytes:
    """The notebook's bytes with the `source` of each changed cell replaced, and nothing else."""
    bom = _BOM if data.startswith(_BOM) else b""
    text = data[len(bom):].decode("utf-8")
    ascii_only = text.isascii()  # the file escapes non-ASCII (\u00e9): so do the new lines
    spans = source_spans(text)
    for number in sorted(changed, reverse=True):
        if number not in spans:
            raise NotebookError(f"cell {number} has no `source` to write the fix into; nothing written")
        start, end = spans[number]
        text = text[:start] + _source_json(text[start:end], changed[number], ascii_only) + text[end:]
    return bom + text.encode("utf-8")


def _source_json(old: str, lines: list[tuple[str, Optional[int]]], ascii_only: bool) -> str:
    """The new `source` value, written as the old one was: a string stays a string; a list of
    one line per item keeps each unchanged item's own text and the separators between items."""
    def dumps(value: str) -> str:
        return json.dumps(value, ensure_ascii=ascii_only)

    items = _array_items(old) if old.startswith("[") else []
    if not items:
        joined = dumps("".join(text for text, _ in lines))
        return f"[{joined}]" if old.startswith("[") else joined
    values = json.loads(old)
    head, tail = old[:items[0][0]], old[items[-1][1]:]
    separator = old[items[0][1]:items[1][0]] if len(items) > 1 else "," + head[1:]
    one_per_line = all(len(split_lines(value, keepends=True)) == 1 for value in values)
    out = []
    for text, where in lines:
        if one_per_line and where is not None and values[where] == text:
            out.append(old[items[where][0]:items[where][1]])
        else:
            out.append(dumps(text))
    return head + separator.join(out) + tail


_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _skip(text: str, i: int) -> int:
    return _SPACE.match(text, i).end()


def _array_items(text: str, i: int = 0) -> list[tuple[int, int]]:
    """(start, end) of each item of the JSON array at text[i]."""
    items = []
    i = _skip(text, i + 1)
    while text[i] != "]":
        _, end = _DECODER.raw_decode(text, i)
        items.append((i, end))
        i = _skip(text, end)
        if text[i] == ",":
            i = _skip(text, i + 1)
    return items


def _object_members(text: str, i: int) -> dict[str, tuple[int, int]]:
    """{key: (start, end) of its value} of the JSON object at text[i]; a repeated key's last
    value, as `json.loads` keeps it."""
    members = {}
    i = _skip(text, i + 1)
    while text[i] != "}":
        key, i = json.decoder.scanstring(text, i + 1)
        i = _skip(text, _skip(text, i) + 1)  # past the colon
        _, end = _DECODER.raw_decode(text, i)
        members[key] = (i, end)
        i = _skip(text, end)
        if text[i] == ",":
            i = _skip(text, i + 1)
    return members


def source_spans(text: str) -> dict[int, tuple[int, int]]:
    """{cell number: (start, end) of its `source` value} in the notebook's JSON text."""
    top = _object_members(text, _skip(text, 0))
    spans = {}
    for number, (start, _) in enumerate(_array_items(text, top["cells"][0]), start=1):
        source = _object_members(text, start).get("source")
        if source is not None:
            spans[number] = source
    return spans
