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
