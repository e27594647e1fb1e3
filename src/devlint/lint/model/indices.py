"""Parameters a function uses only to pick elements: as an index or a mask (`x[mask]`), in
comparisons that make one (`labels == task`), counted or listed (`torch.unique(t)`, `t.item()`),
read as numbers (`int(length)`) or where a test proved them no tensor (`if isinstance(t, int): ...`).

PyTorch indexes a CUDA tensor with a CPU index or mask, so a CPU tensor handed to such a
parameter meets no device tensor: a model whose `forward` takes one (task labels of a
multi-head model) may be given it on the CPU.
"""
from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from devlint.lint.syntax import dotted

# Calls whose result is no tensor (`len`, `isinstance`) or picks values out of an index
# (`torch.unique(labels)`: what is iterated is an index again).
_PLAIN_CALLS = frozenset({"isinstance", "len", "int", "bool", "str", "print"})
_PICKING_CALLS = frozenset({"unique", "torch.unique", "nonzero", "torch.nonzero", "torch.where"})
_PLAIN_METHODS = frozenset({"item", "tolist", "numel", "dim", "size"})
# Conversions to Python numbers, which read a tensor of one element from any device: a
# parameter used only so (`self.pe[:, :int(length)]`) picks, as an index does.
_NUMBER_CALLS = frozenset({"int", "float"})
_NUMBER_METHODS = frozenset({"item", "tolist"})
_PICKING_METHODS = frozenset({"unique", "nonzero"})

def index_only_params(info: Any) -> frozenset:
    """The parameters of a function (its `FuncInfo`) used only to pick elements, at least once
    as an index; computed once per function."""
    if info.index_params is None:
        info.index_params = _index_only(info.node)
    return info.index_params


def _index_only(function: Any) -> frozenset:
    if type(function) is not cst.FunctionDef:
        return frozenset()
    params = [p.name.value for p in function.params.params + function.params.kwonly_params]
    strings = _compared_with_strings(function)
    return frozenset(p for p in params[1:] if p in strings or _only_picks(function, p))


_STRINGS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def _compared_with_strings(function: cst.FunctionDef) -> set:
    """Parameters the function compares with a string literal (`if mode == 'head-batch':`,
    `mode in ('single', 'tail')`): a mode or a name, proven no tensor, so a caller may pass it
    from a CPU batch (a `collate_fn` that hands the mode along) without moving it."""
    found = set()
    for comparison in _comparisons(function.body):
        left = comparison.left
        for target in comparison.comparisons:
            right = target.comparator
            if type(left) is cst.Name and _is_strings(right):
                found.add(left.value)
            if type(right) is cst.Name and _is_strings(left):
                found.add(right.value)
            left = right
    return found


def _is_strings(node: cst.CSTNode) -> bool:
    if type(node) in _STRINGS:
        return True
    if type(node) in (cst.Tuple, cst.List, cst.Set):
        return bool(node.elements) and all(type(e.value) in _STRINGS for e in node.elements)
    return False


def _comparisons(node: cst.CSTNode) -> Iterator[cst.Comparison]:
    if type(node) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
        return  # a nested scope may rebind the name
    if type(node) is cst.Comparison:
        yield node
    for child in node.children:
        yield from _comparisons(child)


def _only_picks(function: cst.FunctionDef, name: str) -> bool:
    derived = {name}
    indexed = False
    changed = True
    while changed:  # names made from the parameter (`mask = labels == t`) join it
        changed = False
        for node, parents in _names(function.body, ()):
            if node.value not in derived:
                continue
            verdict, made = _use(node, parents)
            if verdict is None:
                return False
            indexed |= verdict
            for target in made:
                if target not in derived:
                    derived.add(target)
                    changed = True
    return indexed


def _names(node: cst.CSTNode, parents: tuple) -> Iterator[tuple]:
    if type(node) is cst.Name:
        yield node, parents
        return
    if type(node) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
        return  # a nested scope may rebind the name
    for child in node.children:
        yield from _names(child, parents + (node,))


def _use(node: cst.Name, parents: tuple) -> tuple:
    """(indexes, names it makes) for one use; indexes None: a use of another kind."""
    parent = parents[-1] if parents else None
    if (type(parent) is cst.Attribute and parent.attr is node) or \
            (type(parent) is cst.Arg and parent.keyword is node) or \
            (type(parent) is cst.AssignTarget and parent.target is node) or \
            (type(parent) is cst.For and parent.target is node):
        return False, ()  # an attribute's or keyword's name, or a binding: not a use
    if _no_tensor_here(node.value, parents):
        return False, ()
    child: cst.CSTNode = node
    for position in range(len(parents) - 1, -1, -1):
        parent = parents[position]
        kind = type(parent)
        if kind is cst.Index and position > 0 and type(parents[position - 1]) is cst.SubscriptElement:
            return True, ()  # `x[mask]`, `out[mask, :n]`
        if kind in (cst.Tuple, cst.SubscriptElement, cst.Element, cst.Comparison,
                    cst.ComparisonTarget, cst.UnaryOperation):
            if kind is cst.Comparison:
                return _result(parent, parents[:position])
            child = parent
            continue
        if kind is cst.Arg:
            call = parents[position - 1] if position > 0 else None
            spelled = dotted(call.func) if type(call) is cst.Call else None
            if spelled in _NUMBER_CALLS:
                return True, ()  # `self.pe[:, :int(length)]`: read as a number, on any device
            if spelled in _PLAIN_CALLS:
                return False, ()
            if spelled in _PICKING_CALLS:
                return _result(call, parents[:position - 1])
            return None, ()
        if kind is cst.Attribute and parent.value is child:
            call = parents[position - 1] if position > 0 else None
            if type(call) is cst.Call and call.func is parent:
                if parent.attr.value in _NUMBER_METHODS:
                    return True, ()  # `length.item()`: a number, read from any device
                if parent.attr.value in _PLAIN_METHODS:
                    return False, ()
                if parent.attr.value in _PICKING_METHODS:
                    return _result(call, parents[:position - 1])
            return None, ()
        if kind is cst.For and parent.iter is child:
            return False, _targets(parent.target)
        if kind in (cst.If, cst.While) and parent.test is child:
            return False, ()
        if kind is cst.Assign and parent.value is child:
            return False, tuple(n for t in parent.targets for n in _targets(t.target))
        if kind is cst.Param:
            return False, ()
        return None, ()
    return None, ()


def _result(made: cst.CSTNode, parents: tuple) -> tuple:
    """What a comparison or a picking call over the parameter is used as: an index, a test,
    or a name that must itself only pick."""
    if not parents:
        return None, ()
    parent = parents[-1]
    kind = type(parent)
    if kind is cst.Index:
        return True, ()
    if kind in (cst.If, cst.While, cst.IfExp, cst.Assert) and parent.test is made:
        return False, ()
    if kind is cst.Assign and parent.value is made:
        return False, tuple(n for t in parent.targets for n in _targets(t.target))
    if kind is cst.For and parent.iter is made:
        return False, _targets(parent.target)
    if kind is cst.BooleanOperation or kind is cst.UnaryOperation:
        return _result(parent, parents[:-1])
    return None, ()


def _targets(target: cst.BaseExpression) -> tuple:
    return (target.value,) if type(target) is cst.Name else ()


def _no_tensor_here(name: str, parents: tuple) -> bool:
    """Inside the arm of a test that proved `name` no tensor (`if isinstance(t, int):`)."""
    from devlint.lint.model.evaluate import not_a_tensor

    for position, parent in enumerate(parents):
        if type(parent) is not cst.If:
            continue
        proved: Optional[tuple] = not_a_tensor(parent.test)
        if proved is None or proved[0] != name:
            continue
        arm = parent.body if proved[1] else parent.orelse
        if arm is not None and position + 1 < len(parents) and parents[position + 1] is arm:
            return True
    return False
