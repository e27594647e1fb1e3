"""The fast walk must call a visitor's hooks exactly as libcst's own walk does."""
from __future__ import annotations

import functools
import inspect
from pathlib import Path

import libcst as cst
import pytest

from devlint.lint import facts as facts_module
from devlint.lint.analyze import analyze_source
from devlint.lint.traverse import Walker, child_fields

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "fixtures").rglob("*.py")) + sorted((ROOT / "examples").glob("*.py"))
NODE_TYPES = [t for t in vars(cst).values() if isinstance(t, type) and issubclass(t, cst.CSTNode)
              and not inspect.isabstract(t)]


def recorder_type(with_layout: bool, skip: tuple[str, ...] = ()) -> type:
    """A visitor with a hook for every node type (layout ones too when asked)."""
    def hooks(name: str) -> dict:
        def enter(self, node):
            self.log.append(("visit", name, id(node)))
            return False if name in skip else None

        def leave(self, node):
            self.log.append(("leave", name, id(node)))
        return {f"visit_{name}": enter, f"leave_{name}": leave}

    namespace: dict = {"__init__": lambda self: setattr(self, "log", [])}
    for node_type in NODE_TYPES:
        layout = node_type.__module__.endswith(("whitespace", "op"))
        if with_layout or not layout:
            namespace.update(hooks(node_type.__name__))
    return type("Recorder", (cst.CSTVisitor,), namespace)


@functools.lru_cache(maxsize=None)
def parsed(path: Path) -> cst.Module:
    return cst.parse_module(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("with_layout", [False, True], ids=["no-layout-hooks", "layout-hooks"])
@pytest.mark.parametrize("skip", [(), ("FunctionDef", "Call")], ids=["full", "False-skips"])
def test_hooks_run_in_libcsts_order(with_layout: bool, skip: tuple) -> None:
    visitor_type = recorder_type(with_layout, skip)
    walker = Walker(visitor_type)
    assert walker.exact
    for path in SOURCES:
        module = parsed(path)
        slow, fast = visitor_type(), visitor_type()
        module.visit(slow)
        walker.run(module, fast)
        expected = slow.log if with_layout else [e for e in slow.log if e[1] in {
            t.__name__ for t in NODE_TYPES if not t.__module__.endswith(("whitespace", "op"))}]
        assert fast.log == expected, path


def test_attribute_hooks_fall_back_to_libcsts_walk() -> None:
    class AttributeHook(cst.CSTVisitor):
        def visit_Call_func(self, node: cst.Call) -> None:
            pass

    assert not Walker(AttributeHook).exact


def test_every_node_type_with_children_has_a_known_field_order() -> None:
    unknown = [t.__name__ for t in NODE_TYPES
               if child_fields(t) is None and not t.__module__.endswith(("whitespace", "op"))]
    assert unknown == []


def test_findings_are_the_same_with_libcsts_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = {path: path.read_text(encoding="utf-8") for path in SOURCES}
    fast = {path: analyze_source(text, str(path)) for path, text in texts.items()}
    slow_walker = Walker(facts_module._FactsVisitor)
    slow_walker.exact = False
    monkeypatch.setattr(facts_module, "_WALKER", slow_walker)
    slow = {path: analyze_source(text, str(path)) for path, text in texts.items()}
    assert fast == slow
    assert sum(map(len, fast.values())) > 100  # the fixtures do produce findings


def test_reading_a_method_by_indentation_gives_inspects_definition() -> None:
    import ast
    import textwrap

    from devlint.lint.traverse import _parsed_method

    for node_type in NODE_TYPES:
        method = node_type._visit_and_replace_children
        expected = ast.parse(textwrap.dedent(inspect.getsource(method))).body[0]
        assert ast.dump(_parsed_method(method)) == ast.dump(expected), node_type.__name__


def every_node(module: cst.Module):
    """(node, field name, child) through every dataclass field, layout included."""
    import dataclasses

    stack = [module]
    while stack:
        node = stack.pop()
        for field in dataclasses.fields(node):
            value = getattr(node, field.name)
            for child in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(child, cst.CSTNode):
                    yield node, field.name, child
                    stack.append(child)


def test_fields_left_out_of_the_content_hold_only_layout() -> None:
    """content_fields reads libcst's annotations; on real trees, what the dropped fields hold
    must be layout (whitespace, operators, brackets) or no node at all."""
    from devlint.lint.traverse import content_fields, is_layout

    dropped_seen = 0
    for path in SOURCES:
        for node, name, child in every_node(parsed(path)):
            if name not in content_fields(type(node)):
                dropped_seen += 1
                assert is_layout(type(child)), (path, type(node), name)
    assert dropped_seen > 1000  # the check saw real layout fields


def test_the_content_walk_reaches_every_content_node() -> None:
    from devlint.lint.syntax import walk
    from devlint.lint.traverse import is_layout

    for path in SOURCES[:40]:
        module = parsed(path)
        content = {id(child) for _, _, child in every_node(module) if not is_layout(type(child))}
        assert content <= {id(n) for n in walk(module)}, path
