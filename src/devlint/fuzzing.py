"""Mutations for fuzzing the engine: what editing, merging and pasting do to real files.
Used by tests/test_fuzz.py (a bounded slice in CI) and scripts/fuzz.py (the long campaign)."""
from __future__ import annotations

import random
import re
import warnings

TOKEN = re.compile(r"\w+|[^\w\s]")


def mutate(text: str, rng: random.Random, rounds: int = 3) -> str:
    lines = text.splitlines(keepends=True) or [""]
    for _ in range(rng.randint(1, rounds)):
        kind = rng.choice(("delete", "duplicate", "indent", "dedent", "swap_tokens", "truncate",
                           "join"))
        at = rng.randrange(len(lines))
        if kind == "delete" and len(lines) > 1:
            del lines[at]
        elif kind == "duplicate":
            lines.insert(at, lines[at])
        elif kind == "indent":
            lines[at] = rng.choice(("    ", "\t", " ")) + lines[at]
        elif kind == "dedent":
            lines[at] = lines[at].lstrip(" \t")
        elif kind == "swap_tokens":
            tokens = TOKEN.findall(lines[at])
            if len(tokens) >= 2:
                a, b = rng.sample(tokens, 2)
                lines[at] = lines[at].replace(a, "\0", 1).replace(b, a, 1).replace("\0", b, 1)
        elif kind == "truncate":
            lines[at] = lines[at][: rng.randrange(len(lines[at]) + 1)]
        elif kind == "join" and at + 1 < len(lines):
            lines[at] = lines[at].rstrip("\r\n") + " " + lines.pop(at + 1)
    return "".join(lines)


def check_invariants(text: str, findings) -> None:
    """What must hold for any input: positions inside the file; DEV999 exactly when Python
    refuses it; DEV998 only for valid Python that devlint's limits or libcst keep out."""
    import ast

    line_count = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
    for finding in findings:
        assert 1 <= finding.line <= line_count + 1, finding
        assert finding.column >= 1, finding
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            ast.parse(text)
        compiles = True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        compiles = False
    codes = {f.code for f in findings}
    assert (not compiles) == ("DEV999" in codes), findings
    assert "DEV998" not in codes or (compiles and _devlint_refuses(text)), findings


def _devlint_refuses(text: str) -> bool:
    """Files CPython parses that the screen or libcst refuses: DEV998 is the honest answer."""
    from devlint.lint.limits import Unanalysable, check_size, deep_recursion, screen
    from devlint.lint.parse import check_syntax, parse_module

    try:
        check_size(text)
        screen(check_syntax(text))
        with deep_recursion():
            parse_module(text)
    except (Unanalysable, RecursionError):
        return True
    return False


# --- the prefilter changes no result ---------------------------------------------------------


def check_prefilter(text: str) -> None:
    """The text prefilter may only skip files without findings: the same findings with it on
    and off (it is what keeps a large tree fast, so a miss would be a silent false negative).
    DEV998 aside: a file no rule can fire in needs no libcst parse, so libcst's limits are no
    reason to report it."""
    from unittest import mock

    from devlint.lint import analyze

    with_filter = analyze.analyze_source(text, "fuzz.py")
    with mock.patch.object(analyze, "could_match", lambda text, codes: True):
        without = analyze.analyze_source(text, "fuzz.py")
    if any(f.code == "DEV998" for f in without):
        without = [f for f in without if f.code != "DEV998"]
        assert not [f for f in with_filter if f.code != "DEV998"], with_filter
        return
    assert _positions(with_filter) == _positions(without), (with_filter, without)


def _positions(findings) -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.code) for f in findings]


# --- --fix on any input ----------------------------------------------------------------------


def check_fix(text: str) -> str:
    """`--fix` as the CLI runs it (every fix, unsafe ones too, until nothing is left): the
    result parses (CPython and libcst) whenever the input did, a second run changes nothing,
    and each round changes nothing outside the text its edits replaced. Returns the result."""
    from devlint.lint.analyze import analyze_source
    from devlint.lint.fix import parses, apply_fixes, settle

    def fix_round(current: str):
        findings = analyze_source(current, "fuzz.py")
        outcome = apply_fixes(current, findings, unsafe=True)
        if outcome.applied:
            _assert_only_edits_changed(current, outcome)
        return (outcome.text if outcome.applied else None), outcome.error, findings

    settled = settle(fix_round, text)
    assert not settled.errors or "would not parse" in settled.errors[0], settled.errors
    fixed = settled.content
    if settled.changed:
        assert parses(fixed), fixed
        assert not [f for f in settled.remaining if f.code in ("DEV998", "DEV999")]
    again = settle(fix_round, fixed)
    assert not again.changed, "a second --fix changed the file"
    return fixed


def _assert_only_edits_changed(before: str, outcome) -> None:
    from devlint.lint.lines import split_lines, surviving_lines

    kept = surviving_lines(before, outcome.edits, outcome.text)
    untouched = [i for i, line in enumerate(split_lines(before, keepends=True))
                 if not _touched(i, before, outcome.edits)]
    assert sorted(kept.values()) == untouched, "a line no edit touched changed"


def _touched(index: int, text: str, edits) -> bool:
    from devlint.lint.lines import line_starts, split_lines, touches

    begin = line_starts(text)[index]
    end = begin + len(split_lines(text, keepends=True)[index])
    return any(touches(edit, begin, end) for edit in edits)


# --- notebooks built from real scripts -------------------------------------------------------


def notebook_of(text: str, rng: random.Random) -> tuple[bytes, list[tuple[int, int, int]]]:
    """`text` (a script that compiles) cut into code cells at top-level statements, in one of
    the shapes notebooks come in: markdown between, an IPython line first, source as a list or
    one string, the cells indented as a whole, CRLF or \\u escapes in the JSON. Returns the
    bytes and, per code cell, (cell number, the script's line of its line 1, the indent added)."""
    import ast
    import json

    from devlint.lint.lines import split_lines

    lines = split_lines(text, keepends=True)
    starts = sorted({_first_line(node) - 1 for node in ast.parse(text).body} | {0})
    cuts = sorted({0} | set(rng.sample(starts, rng.randint(0, len(starts)))) | {len(lines)})
    cells, layout = [], []
    indent = rng.choice(("", "", "  ", "\t"))
    as_string = rng.random() < 0.3
    for first, end in zip(cuts, cuts[1:]):
        if rng.random() < 0.3:
            cells.append({"cell_type": "markdown", "metadata": {}, "source": ["# Notes\n", "caf\u00e9"]})
        magic = [rng.choice(MAGICS)] if rng.random() < 0.2 else []
        source = [indent + line if line.strip() else line for line in magic + lines[first:end]]
        cells.append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                      "source": "".join(source) if as_string else source})
        shift = len(indent) if source and source[0].strip() else 0
        layout.append((len(cells), first + 1 - len(magic), shift))
    notebook = {"cells": cells, "metadata": {"x": 1e-05}, "nbformat": 4, "nbformat_minor": 5}
    data = json.dumps(notebook, indent=rng.choice((1, 2)), ensure_ascii=rng.random() < 0.5) + "\n"
    if rng.random() < 0.3:
        data = data.replace("\n", "\r\n")
    return data.encode("utf-8"), layout


MAGICS = ("%matplotlib inline\n", "!pip install -q torch\n", "%load_ext autoreload\n",
          "files = !ls\n")


def _first_line(node) -> int:
    decorators = getattr(node, "decorator_list", None) or []
    return min([node.lineno] + [d.lineno for d in decorators])


def check_notebook(text: str, rng: random.Random) -> None:
    """A notebook built from a script has the script's findings, at the same places, and
    never a parse error; fixing it changes only code cells' sources, the rest byte for byte,
    the fixed cells parse, and a second fix changes nothing."""
    from devlint.lint.analyze import analyze_source
    from devlint.workspace.notebook import analyze_notebook

    script = analyze_source(text, "script.py")
    if {f.code for f in script} & {"DEV998", "DEV999"}:
        return  # not a script a notebook could be built from
    data, layout = notebook_of(text, rng)
    found = analyze_notebook(data, "nb.ipynb")
    assert _in_script(found, layout) == _positions(script), (found, script)
    _check_notebook_fix(data)


def _in_script(findings, layout) -> list[tuple[int, int, str]]:
    where = {number: (first, shift) for number, first, shift in layout}
    out = []
    for finding in findings:
        first, shift = where[finding.cell]
        out.append((first + finding.line - 1, finding.column - shift, finding.code))
    return sorted(out)


def _check_notebook_fix(data: bytes) -> None:
    import json

    from devlint.lint.fix import parses, settle
    from devlint.lint.selection import Selection
    from devlint.workspace.notebook import fix_round, load, program

    settled = settle(lambda current: fix_round(current, "nb.ipynb", Selection(), True), data)
    if not settled.changed:
        return
    new = settled.content
    before, after = json.loads(data), json.loads(new)
    for old_cell, new_cell in zip(before["cells"], after["cells"]):
        assert {k: v for k, v in old_cell.items() if k != "source"} == \
               {k: v for k, v in new_cell.items() if k != "source"}
    assert len(before["cells"]) == len(after["cells"]) and before["metadata"] == after["metadata"]
    assert _outside_sources(data) == _outside_sources(new), "bytes outside the sources changed"
    assert parses(program(load(new)).text)
    assert not settle(lambda current: fix_round(current, "nb.ipynb", Selection(), True), new).changed


def _outside_sources(data: bytes) -> list[str]:
    from devlint.workspace.notebook import source_spans

    text = data.decode("utf-8")
    spans = sorted(source_spans(text).values())
    edges = [0] + [edge for span in spans for edge in span] + [len(text)]
    return [text[a:b] for a, b in zip(edges[::2], edges[1::2])]
