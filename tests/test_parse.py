"""The engine's parse skips libcst's per-node validation: same trees, and only for the parse."""
from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from conftest import python_sources

from devlint.lint import parse as engine

ROOT = Path(__file__).resolve().parent.parent
SOURCES = python_sources()


def test_the_skip_applies_to_this_libcst() -> None:
    assert engine._SKIPPABLE_VALIDATION, "a node type overrides __post_init__: the skip is off"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_trees_equal_libcsts_own(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    ours = engine.parse_module(text)
    assert ours.deep_equals(cst.parse_module(text))
    assert ours.code == text


def test_validation_is_back_after_a_parse_and_after_a_failed_one() -> None:
    engine.parse_module("x = f(1)\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")
    with pytest.raises(engine.Unanalysable):
        engine.parse_module("x = = 1\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


def test_nodes_built_during_the_parse_skip_validation_only_there() -> None:
    seen = []
    with engine._parser_output_trusted():
        seen.append(cst.Name("not a name"))  # would raise outside
    assert seen[0].value == "not a name"


def test_the_cyclic_collector_pauses_for_the_parse_only() -> None:
    import gc

    states = []
    with engine._parser_output_trusted():
        states.append(gc.isenabled())
    assert states == [False] and gc.isenabled()
    with pytest.raises(engine.Unanalysable):
        engine.parse_module("x = = 1\n")
    assert gc.isenabled()
    gc.disable()  # a caller that turned it off keeps it off
    try:
        engine.parse_module("x = f(1)\n")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_analysis_paces_full_collections_and_gives_the_host_its_pacing_back(monkeypatch) -> None:
    """During an analysis the collector walks the whole heap at most every
    FULL_COLLECTION_EVERY middle-generation collections (`core.collector`); the host's own
    thresholds (flake8's, an editor's) come back afterwards, even when the analysis fails."""
    import gc

    from devlint.core.collector import FULL_COLLECTION_EVERY
    from devlint.lint import analyze as analysis

    seen = []
    real = analysis._analyze

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis, "_analyze", spy)
    before = gc.get_threshold()
    try:
        gc.set_threshold(500, 7, 3)
        analysis.analyze_source("import torch\nx = torch.zeros(3).cuda()\n", "a.py")
        assert seen[-1] == (500, 7, FULL_COLLECTION_EVERY) and gc.get_threshold() == (500, 7, 3)
        monkeypatch.setattr(analysis, "_analyze", lambda *a, **k: (_ for _ in ()).throw(KeyError()))
        with pytest.raises(KeyError):
            analysis.analyze_source("x = 1\n", "a.py")
        assert gc.get_threshold() == (500, 7, 3)
    finally:
        gc.set_threshold(*before)


# --- the editor's parse: only the top-level statements an edit touched -------------------------

TRICKY = {  # what libcst gives to the block above, or keeps with the next statement
    "trailer": "if x:\n    y = 1\n    # under the block\n  \n\n# before z\nz = 2\n",
    "dedented": "import a\n\n\n # indented, after a simple statement\ndef f():\n    pass\n",
    "semicolons": "a = 1; b = 2\nc = 3\n",
    "decorated": "import torch\n\n@decorator\n# between\n@other\ndef f():\n    return 1\n",
    "two-space blocks": "def f():\n  return 1\n\nclass A:\n  pass\n",
    "mixed indents": "def f():\n  return 1\n\nclass A:\n    pass\n",
    "footer": "x = 1\n\n# the end\n",
    "crlf": "x = 1\r\n\r\ndef f():\r\n    return x\r\n",
}


def _pieces_parse(text: str, parser: engine.PieceParser | None = None) -> cst.Module:
    import ast

    return (parser or engine.PieceParser()).parse(text, ast.parse(text))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_pieces_put_together_are_libcsts_tree(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    ours = _pieces_parse(text)
    assert ours.code == text
    assert ours.deep_equals(cst.parse_module(text))


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_the_pieces_keep_every_line_where_libcst_puts_it(name: str) -> None:
    text = TRICKY[name]
    ours = _pieces_parse(text)
    assert ours.code == text and ours.deep_equals(cst.parse_module(text))


def test_an_edit_parses_only_the_statement_it_touched() -> None:
    text = (ROOT / "examples" / "seed_loop.py").read_text(encoding="utf-8")
    parser = engine.PieceParser()
    _pieces_parse(text, parser)
    before = parser.parsed
    assert before > 5
    edited = text.replace("import torch\n", "import torch  # edited\n", 1)
    assert edited != text
    assert _pieces_parse(edited, parser).deep_equals(cst.parse_module(edited))
    assert parser.parsed == before + 1
    _pieces_parse(text, parser)  # undo: every piece known
    assert parser.parsed == before + 1


# Four analyses a file: a third of the sources (every third, in path order, so every rule's
# folder is in) keeps the suite within CI's time; the parse tests above take every file.
@pytest.mark.parametrize("path", SOURCES[::3], ids=lambda p: str(p.relative_to(ROOT)))
def test_the_editors_incremental_analysis_finds_what_a_full_one_does(path: Path) -> None:
    """A version analysed after another (its pieces reused) gets a full analysis' findings,
    positions and fixes."""
    from devlint.lint.analyze import analyze_source

    text = path.read_text(encoding="utf-8")
    parser = engine.PieceParser()
    analyze_source(text + "\nzz = 1\n", str(path), pieces=parser)
    analyze_source("# typed at the top\n" + text, str(path), pieces=parser)
    assert analyze_source(text, str(path), pieces=parser) == analyze_source(text, str(path))


def test_a_statement_the_text_repeats_is_a_node_of_its_own() -> None:
    """The joined examples repeat whole scripts: each copy's findings are its own."""
    from devlint.lint.analyze import analyze_source

    text = (ROOT / "examples" / "buggy_seed_loop.py").read_text(encoding="utf-8") * 2
    tree = _pieces_parse(text)
    nodes = [id(statement) for statement in tree.body]
    assert len(set(nodes)) == len(nodes)
    full = analyze_source(text, "t.py")
    assert len({f.line for f in full}) > 4
    assert analyze_source(text, "t.py", pieces=engine.PieceParser()) == full


PEP_695_SCRIPT = """\
def first[T](items: list[T]) -> T:
    return items[0]


class Box[T]:
    pass


type Pair = tuple[int, int]
import torch

x = torch.zeros(2).cuda()
"""


def test_python_3_12_generics_are_analysed_under_an_older_python() -> None:
    """PEP 695 is valid code for the project it comes from (torchgeo needs Python 3.12); CPython
    3.11 refuses it, libcst reads it, so it is analysed rather than called unparseable."""
    from devlint.lint.analyze import analyze_source

    found = [(f.line, f.code) for f in analyze_source(PEP_695_SCRIPT, "t.py")]
    assert found == [(12, "DEV001")]


def test_a_real_syntax_error_on_a_generic_line_is_still_dev999() -> None:
    from devlint.lint.analyze import analyze_source

    broken = PEP_695_SCRIPT.replace("def first[T](items: list[T]) -> T:", "def first[T](items: list[T]) -> T")
    assert [f.code for f in analyze_source(broken, "t.py")] == ["DEV999"]
    assert [f.code for f in analyze_source("f() = 1\nimport torch\n", "t.py")] == ["DEV999"]


PEP_701_SCRIPT = """\
import torch

name = "resnet_50"
folder = f'{name.rsplit('_', 1)[0]}'
joined = f"{'\\\\n'.join(['a', 'b'])}"
x = torch.zeros(2).cuda()
"""


def test_python_3_12_f_strings_are_analysed_under_an_older_python() -> None:
    """PEP 701 lets an f-string's field reuse its quote (`f'{name.rsplit('_', 1)[0]}'`, set 39's
    Tree-Point-Cloud-Classification) and hold a backslash: valid Python 3.12, refused by 3.11.
    libcst reads it, so the file is analysed rather than called unparseable."""
    from devlint.lint.analyze import analyze_source

    assert [(f.line, f.code) for f in analyze_source(PEP_701_SCRIPT, "t.py")] == [(6, "DEV001")]


@pytest.mark.parametrize("line", ["folder = f'{name'", "folder = f'{name!}'", "folder = f'{}'"])
def test_a_broken_f_string_is_still_dev999(line: str) -> None:
    from devlint.lint.analyze import analyze_source

    assert [f.code for f in analyze_source(f"import torch\n{line}\n", "t.py")] == ["DEV999"]
