"""Two costs cut from every file's analysis must not change what they guard: the screen passes
over short statements and expressions whole, and the collector runs once per file."""
from __future__ import annotations

import ast
import gc

import pytest

from devlint.core import collector
from devlint.core.limits import Unanalysable, screen

CASES = [
    "x = " + "-" * 1100 + "1\n",  # nests past MAX_DEPTH in one short-looking line
    "".join(f"x{i} = a" + ".b" * 400 + "\n" for i in range(20)),  # long chains past the budget
    "def f():\n" + "".join("    " * (i + 1) + "if x:\n" for i in range(90))
    + "    " * 91 + "y = " + "-" * 800 + "1\n",  # deep statements, then a deep expression
    "z = a\\\n" + "  .b\\\n" * 100 + "\n",  # a chain over continued lines
    "w = (a\n" + "  .b\n" * 300 + ")\n" * 1,  # a chain over bracketed lines
    "v = [1, 2]\r" + "u = a" + ".b" * 70 + "\r",  # lines ended by a lone CR, as CPython counts
]


def outcome(text: str, with_text: bool):
    try:
        screen(ast.parse(text), text if with_text else None)
    except Unanalysable as exc:
        return exc.line, exc.column, exc.reason
    return "ok"


@pytest.mark.parametrize("text", CASES)
def test_the_screen_decides_as_it_did_when_it_walked_every_node(text: str) -> None:
    assert outcome(text, True) == outcome(text, False)


def test_a_deep_expression_is_still_refused() -> None:
    assert outcome(CASES[0], True) != "ok"
    assert outcome(CASES[1], True) != "ok"


def test_one_file_leaves_the_collector_as_it_found_it() -> None:
    assert gc.isenabled()
    with collector.one_file():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()  # a host that runs its own collector
    try:
        with collector.one_file():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_garbage_cycles_of_a_file_are_freed_at_its_end() -> None:
    class Node:
        pass

    import weakref

    with collector.one_file():
        a, b = Node(), Node()
        a.other, b.other = b, a
        probe = weakref.ref(a)
        del a, b
        assert probe() is not None  # the collector is off during the file
    assert probe() is None
    gc.unfreeze()


def _frozen_cycle():
    """A cycle that outlived a file (frozen at its end), then became garbage: what a summary
    evicted from its cache leaves."""
    import weakref

    class Node:
        pass

    with collector.one_file():
        keep = [Node(), Node()]
        keep[0].other, keep[1].other = keep[1], keep[0]
        probe = weakref.ref(keep[0])
    keep.clear()  # frozen, then let go: only a full collection frees it
    return probe


def test_a_frozen_cycle_waits_until_enough_summaries_were_let_go(monkeypatch) -> None:
    monkeypatch.setattr(collector, "_files", 0)  # far from the next THAW_EVERY
    monkeypatch.setattr(collector, "_drops", 0)
    try:
        probe = _frozen_cycle()
        with collector.one_file():
            pass
        assert probe() is not None  # nothing let go yet: no full collection
        collector.dropped(collector.DROPS_BEFORE_THAW)
        with collector.one_file():
            pass
        assert probe() is None
    finally:
        gc.unfreeze()
        gc.collect()
