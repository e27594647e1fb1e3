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
    from devlint.core.limits import Unanalysable, check_size, deep_recursion, screen
    from devlint.lint.parse import check_syntax, parse_module

    try:
        check_size(text)
        screen(check_syntax(text), text)
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
    from devlint.core.lines import split_lines, surviving_lines

    kept = surviving_lines(before, outcome.edits, outcome.text)
    untouched = [i for i, line in enumerate(split_lines(before, keepends=True))
                 if not _touched(i, before, outcome.edits)]
    assert sorted(kept.values()) == untouched, "a line no edit touched changed"


def _touched(index: int, text: str, edits) -> bool:
    from devlint.core.lines import line_starts, split_lines, touches

    begin = line_starts(text)[index]
    end = begin + len(split_lines(text, keepends=True)[index])
    return any(touches(edit, begin, end) for edit in edits)


# --- notebooks built from real scripts -------------------------------------------------------


def notebook_of(text: str, rng: random.Random) -> tuple[bytes, list[tuple[int, int, int]]]:
    """`text` (a script that compiles) cut into code cells at top-level statements, in one of
    the shapes notebooks come in: markdown between, an IPython line first, source as a list or
    one string, the cells indented as a whole, CRLF or \\u escapes in the JSON. Returns the
    bytes and, per code cell, (cell number, the script's line of its line 1, the indent added,
    the script's first line in it)."""
    import ast
    import json

    from devlint.core.lines import split_lines

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
        layout.append((len(cells), first + 1 - len(magic), shift, first + 1))
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
    """A notebook built from a script has the script's findings, at the same places, when the
    script's lines are grouped into the notebook's cells (a cell runs on its own, so a finding
    given once per unit is given once per cell) and read as a notebook's program (nothing
    imports a notebook, so a function no cell names is dead code there, where a script's may be
    called by its importers), and never a parse error; fixing it changes only
    code cells' sources, the rest byte for byte, the fixed cells parse, and a second fix changes
    nothing."""
    import bisect

    from devlint.lint.analyze import analyze_source
    from devlint.lint.notebooks import analyze_notebook

    if {f.code for f in analyze_source(text, "script.py")} & {"DEV998", "DEV999"}:
        return  # not a script a notebook could be built from
    data, layout = notebook_of(text, rng)
    starts = [start for _, _, _, start in layout]
    cells = [number for number, _, _, _ in layout]
    script = analyze_source(text, "script.ipynb",
                            unit_of=lambda line: cells[max(bisect.bisect_right(starts, line) - 1, 0)])
    found = analyze_notebook(data, "nb.ipynb")
    assert _in_script(found, layout) == _positions(script), (found, script)
    _check_notebook_fix(data)


def _in_script(findings, layout) -> list[tuple[int, int, str]]:
    where = {number: (first, shift) for number, first, shift, _ in layout}
    out = []
    for finding in findings:
        first, shift = where[finding.cell]
        out.append((first + finding.line - 1, finding.column - shift, finding.code))
    return sorted(out)


def _check_notebook_fix(data: bytes) -> None:
    import json

    from devlint.lint.fix import parses, settle
    from devlint.core.selection import Selection
    from devlint.lint.notebooks import fix_round
    from devlint.workspace.notebook import load, program

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


# --- notebooks with a cell that does not parse ------------------------------------------------

BROKEN_CELLS = (
    "Epoch 1/10 loss: 0.53 acc: 81%\n",  # pasted log text
    # a shell line without its `!` that is no IPython magic (`pip install x` is: automagic)
    "git pull origin main\n",
    "Traceback (most recent call last):\n  File \"train.py\", line 3\n",
    "model = Net(\n",  # cut in the middle of a call
    "for x in loader:\n",  # a block with no body
    "    return x\n  y = 1\n",  # bad indentation
    "def f(:\n    pass\n",
)


def check_broken_cell(text: str, rng: random.Random) -> None:
    """A notebook built from a script, with one code cell that does not parse inserted
    anywhere: that cell is exactly one DEV999, inside it, and every other cell has what it
    has in the notebook without it (Jupyter runs the other cells)."""
    import json

    from devlint.lint.analyze import analyze_source
    from devlint.lint.notebooks import analyze_notebook
    from devlint.workspace.notebook import automagic

    if {f.code for f in analyze_source(text, "script.py")} & {"DEV998", "DEV999"}:
        return
    data, _ = notebook_of(text, rng)
    notebook = json.loads(data)
    at = rng.randrange(len(notebook["cells"]) + 1)
    broken = rng.choice(BROKEN_CELLS)
    lines = [line for line in text.splitlines()
             if line.strip().endswith(("(", ":", "[")) and not line.lstrip().startswith("#")]
    if lines and rng.random() < 0.5:  # or a line of the script itself, cut short
        cut = rng.choice(lines).rstrip("([:") + "(\n"
        # (a line of a docstring may parse; one that starts with a magic's name, `run loads
        # before ...`, is a line IPython's automagic runs)
        broken = cut if _refused(cut) and not automagic(cut.splitlines()[0]) else broken
    notebook["cells"].insert(at, {"cell_type": "code", "execution_count": None, "metadata": {},
                                  "outputs": [], "source": broken})
    without = analyze_notebook(data, "nb.ipynb")
    found = analyze_notebook(json.dumps(notebook).encode(), "nb.ipynb")
    mine = [f for f in found if f.cell == at + 1]
    assert [f.code for f in mine] == ["DEV999"], (broken, found)
    assert 1 <= mine[0].line <= len(broken.splitlines()), mine
    others = sorted((f.cell - (f.cell > at + 1), f.line, f.column, f.code) for f in found if f.cell != at + 1)
    assert others == sorted((f.cell, f.line, f.column, f.code) for f in without), (broken, found, without)


def _refused(text: str) -> bool:
    import ast

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            ast.parse(text)
    except (SyntaxError, ValueError):
        return True
    return False


# --- projects with hostile import layouts -----------------------------------------------------

NAMES = ("utils", "config", "data", "model")


def project_layout(root, rng: random.Random) -> list:
    """A small project under `root` whose imports are hard to read: a package and a module of
    the same name side by side, namespace packages, star imports chained and repeated,
    attributes stored on imported modules, import cycles, re-exports through `__init__.py`,
    relative imports past the top. Returns the Python files written."""
    import os

    devices = ('torch.device("cpu")', 'torch.device("cuda" if torch.cuda.is_available() else "cpu")',
               'torch.device("cuda")')
    written = []

    def write(relative: str, text: str) -> None:
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        written.append(path)

    open(os.path.join(root, "pyproject.toml"), "w").close()
    for name in NAMES:
        body = f"import torch\ndevice = {rng.choice(devices)}\n"
        other = rng.choice(NAMES)
        if rng.random() < 0.4:
            body += rng.choice((f"from {other} import *\n", f"import {other}\n",
                                f"from . import {other}\n", f"from .. import {other}\n",
                                f"from {other} import device as device\n"))
        shape = rng.choice(("module", "package", "both", "namespace", "none"))
        if shape in ("module", "both"):
            write(f"{name}.py", body)
        if shape in ("package", "both"):
            write(os.path.join(name, "__init__.py"),
                  body if rng.random() < 0.7 else f"from .core import *\n")
            write(os.path.join(name, "core.py"), f"import torch\ndevice = {rng.choice(devices)}\n")
        if shape == "namespace":
            write(os.path.join(name, "core.py"), body)
    lines = ["import torch", "from torch.utils.data import DataLoader"]
    for _ in range(rng.randint(1, 4)):
        name = rng.choice(NAMES)
        lines.append(rng.choice((f"from {name} import *", f"import {name}",
                                 f"from {name} import device", f"from {name}.core import device",
                                 f"{name}.device = torch.device('cpu')",
                                 f"import {name} as cfg\ncfg.device = {rng.choice(devices)}")))
    lines += ["model = torch.nn.Linear(4, 1).to(device)", "for x, y in DataLoader([]):",
              "    out = model(x)", ""]
    write("train.py", "\n".join(lines))
    return written


def check_project_layout(root, rng: random.Random) -> None:
    """Every top-level import resolves to the file CPython's own path finder picks; the run
    never fails; and each file gets the same findings checked in a whole-project run, in any
    order, as alone with the project around it."""
    import os
    from importlib.machinery import PathFinder
    from pathlib import Path

    from devlint.lint.runner import check_project
    from devlint.core.selection import Selection
    from devlint.workspace.project import Project

    files = project_layout(root, rng)
    train = os.path.join(root, "train.py")
    for name in NAMES:
        spec = PathFinder.find_spec(name, [root])
        expected = None if spec is None else (spec.origin if spec.origin not in (None, "namespace")
                                              else os.path.join(root, name))
        assert Project(root).resolve(train, name) == expected, (name, expected)

    def run(paths) -> set:
        outcomes = list(check_project([Path(p) for p in paths], lambda _: Selection()))
        assert not [o.error for o in outcomes if o.error], outcomes
        for outcome in outcomes:
            check_invariants(Path(outcome.path).read_text(encoding="utf-8"),
                             [f for f in outcome.findings if f.path == outcome.path])
        return {(f.path, f.line, f.column, f.code) for o in outcomes for f in o.findings}

    whole = run(files)
    assert run(list(reversed(files))) == whole
    for path in files:
        assert run([path]) == {f for f in whole if f[0] == path}, path


# --- nested configurations --------------------------------------------------------------------


def check_nested_configs(root, rng: random.Random) -> None:
    """A tree with `[tool.devlint]` tables at random depths: each file's rules are those of
    the nearest table above it (found here by brute force, file by file), and the walk leaves
    out exactly what that table's `exclude` names."""
    import os
    from pathlib import Path

    from devlint.workspace.config import Resolver, load_config
    from devlint.workspace.discovery import Exclusions, iter_files

    folders = [""]
    for _ in range(rng.randint(2, 6)):
        folders.append(os.path.join(rng.choice(folders), rng.choice(("a", "b", "gen", "sub"))))
    all_files = set()
    for folder in set(folders):
        os.makedirs(os.path.join(root, folder), exist_ok=True)
        if rng.random() < 0.5:
            table = {"ignore": rng.sample(["DEV001", "DEV002", "DEV004"], rng.randint(0, 2)),
                     "exclude": rng.sample(["gen", "b/*.py", "x.py"], rng.randint(0, 2))}
            text = "[tool.devlint]\n" + "".join(f"{k} = {v!r}\n".replace("'", '"') for k, v in table.items())
            if rng.random() < 0.2:
                text = "[project]\nname = 'x'\n"  # a pyproject.toml that is not devlint's
            with open(os.path.join(root, folder, "pyproject.toml"), "w", encoding="utf-8") as handle:
                handle.write(text)
        for name in ("x.py", "y.py"):
            path = os.path.join(root, folder, name)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("import torch\n")
            all_files.add(os.path.normpath(path))

    def nearest(directory: str):
        while True:
            candidate = os.path.join(directory, "pyproject.toml")
            if os.path.isfile(candidate) and "[tool.devlint]" in open(candidate, encoding="utf-8").read():
                return Path(candidate)
            if os.path.normpath(directory) == os.path.normpath(root) or os.path.dirname(directory) == directory:
                return None
            directory = os.path.dirname(directory)

    resolver = Resolver()
    for path in sorted(all_files, key=lambda _: rng.random()):
        expected = load_config(nearest(os.path.dirname(path)))
        assert resolver.selection_for(Path(path)) == expected.selection_for(Path(path)), path
    walked = {os.path.normpath(str(p)) for p in iter_files([root], Exclusions(exclude_in=resolver.exclude_in))}
    for path in all_files:
        # each folder on the way, and the file, is left out by its parent folder's nearest table
        steps = _ancestors(path, root) + [path]
        excluded = any(load_config(nearest(os.path.dirname(step))).exclude.matches(step, step != path)
                       for step in steps)
        assert (path in walked) == (not excluded), path


def _ancestors(path: str, root: str) -> list:
    """The folders between `root` (left out) and the file."""
    import os

    relative = os.path.relpath(os.path.dirname(path), root)
    parts = [] if relative == os.curdir else relative.split(os.sep)
    return [os.path.join(root, *parts[:i + 1]) for i in range(len(parts))]


# --- the language server under random edits ---------------------------------------------------


def check_server_edits(client, folder: str, text: str, rng: random.Random) -> None:
    """A document opened in a running server (`server.client.Client`) and edited at random,
    as fast as an editor sends the keystrokes (ranged edits, whole replacements, a close and a
    reopen): the diagnostics of the last version are what `devlint check` finds in that text,
    at the same places, whatever analyses the edits overtook."""
    import os
    from pathlib import Path

    from devlint.lint.analyze import analyze_source

    path = os.path.join(folder, f"edited_{rng.randrange(10**9)}.py")
    uri = Path(path).as_uri()
    version = 1
    client.open(uri, text, version)
    for _ in range(rng.randint(1, 8)):
        version += 1
        if rng.random() < 0.1:
            client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            text = mutate(text, rng)
            client.open(uri, text, version)
            continue
        lines = text.split("\n")
        line = rng.randrange(len(lines))
        start, end = sorted(rng.randrange(len(lines[line]) + 1) for _ in range(2))
        new = rng.choice(("", "x", "(", ")", "\n", "    ", ".cuda()", "torch.zeros(3)", ":"))
        lines[line] = lines[line][:start] + new + lines[line][end:]
        edit = {"range": {"start": {"line": line, "character": start},
                          "end": {"line": line, "character": end}}, "text": new}
        if not text.isascii() or "\r" in text:  # LSP's lines and UTF-16 columns: send it whole
            edit = None
        text = "\n".join(lines)
        client.change(uri, version, text, edit)
    diagnostics = client.diagnostics(uri, version)
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    columns = text.isascii()  # else LSP's columns count UTF-16 units, devlint's characters
    got = sorted((d["range"]["start"]["line"] + 1,
                  d["range"]["start"]["character"] + 1 if columns else 0, d["code"])
                 for d in diagnostics)
    expected = sorted((f.line, f.column if columns else 0, f.code)
                      for f in analyze_source(text, path))
    assert got == expected, (text, got, expected)
