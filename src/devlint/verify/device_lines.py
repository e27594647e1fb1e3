"""The script's device lines: those that make, move or meet a value on the device, read from
its syntax (no torch; the parent runs this). A verify run whose accelerator row never ran one of
them has not checked it: the verdict is PARTIAL, not OK (issue 31).

    make   a call with `device=` (not a literal "cpu"), `.cuda()`, `torch.cuda.FloatTensor(...)`
    move   `.to(...)`, `.cuda()`, `.cpu()`, `map_location=`
    meet   two or more operands of one call or operator, one of them a device value: a name
           bound (anywhere in the file) from a device expression, as `model`, `out`, `loss`
           in `out = model(xb)`; `loss = criterion(out, yb)`. `.item()`, `.tolist()`,
           `float(...)` and the like give plain numbers, so `print(loss.item())` meets nothing.

Flow-insensitive and syntactic: a name is a device value on every line once any line binds it
from one. `loop_ends` gives each loop's last line, so a cut loop can say whether its body holds
device lines.
"""
from __future__ import annotations

import ast
from typing import Optional

MOVES = ("to", "cuda", "cpu")
SCALARS = ("item", "tolist", "numpy", "float", "int", "bool", "len", "str", "repr", "format",
           "isinstance", "type", "id", "print")


def analyse(source: str) -> tuple[dict[int, str], dict[int, int]]:
    """({line: make | move | meet}, {loop line: its last line}); empty for a file that does not
    parse (the run reports its syntax error)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}, {}
    devices = _device_names(tree)
    lines: dict[int, str] = {}
    loops: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            loops[node.lineno] = node.end_lineno or node.lineno
        kind = _kind(node, devices)
        if kind and not (lines.get(node.lineno) in ("make", "move") and kind == "meet"):
            lines[node.lineno] = kind
    return lines, loops


def _name(node: ast.AST) -> Optional[str]:
    """`model`, `self.model`: the dotted name an expression reads, if it is one."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _is_source(node: ast.AST) -> bool:
    """An expression that makes or moves a device value."""
    return _kind(node, frozenset()) in ("make", "move")


def _kind(node: ast.AST, devices) -> str:
    if isinstance(node, ast.Call):
        func = node.func
        attr = func.attr if isinstance(func, ast.Attribute) else ""
        if attr in MOVES and (attr != "to" or node.args or node.keywords):
            return "move"
        for keyword in node.keywords:
            if keyword.arg == "map_location":
                return "move"
            if keyword.arg == "device" and not (isinstance(keyword.value, ast.Constant)
                                                and keyword.value.value in ("cpu", None)):
                return "make"
        dotted = _name(func) or ""
        if dotted.startswith("torch.cuda.") and dotted.endswith("Tensor"):
            return "make"
        operands = [*node.args, *(k.value for k in node.keywords)]
        if _reads_device(func, devices) and not attr:
            operands.append(func)  # a module called: `model(xb)`
        elif isinstance(func, ast.Attribute) and attr not in SCALARS and _reads_device(
                func.value, devices):
            operands.append(func.value)  # a device value's method: `out.eq(yb)` meets yb
        return "meet" if _meeting(operands, devices) else ""
    if isinstance(node, ast.BinOp):
        return "meet" if _meeting([node.left, node.right], devices) else ""
    if isinstance(node, ast.Compare):
        return "meet" if _meeting([node.left, *node.comparators], devices) else ""
    if isinstance(node, ast.AugAssign):
        return "meet" if _meeting([node.target, node.value], devices) else ""
    return ""


def _meeting(operands: list, devices) -> bool:
    flat = []
    for operand in operands:
        flat += operand.elts if isinstance(operand, (ast.List, ast.Tuple)) else [operand]
    flat = [o for o in flat if not isinstance(o, ast.Constant)]
    return len(flat) >= 2 and any(_reads_device(o, devices) for o in flat)


def _reads_device(node: ast.AST, devices) -> bool:
    """The expression holds a device value: it reads a device name, or makes or moves one,
    other than through a call that gives a plain number."""
    if isinstance(node, ast.Call):
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else _name(func) or ""
        if called in SCALARS:
            return False
        if _is_source(node):
            return True
    name = _name(node)
    if name is not None and name in devices:
        return True
    return any(_reads_device(child, devices) for child in ast.iter_child_nodes(node))


def _device_names(tree: ast.Module) -> frozenset:
    """Names bound from device expressions, to a fixed point (`out = model(xb)` after
    `model = Net().to(device)`)."""
    bindings = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            bindings += [(target, node.value) for target in node.targets]
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            bindings.append((node.target, node.value))
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            bindings.append((node.target, node.iter))
    devices: set = set()
    while True:
        before = len(devices)
        for target, value in bindings:
            if _reads_device(value, devices):
                devices.update(_targets(target))
        if len(devices) == before:
            return frozenset(devices)


def _targets(target: ast.AST) -> list[str]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _targets(element)]
    if isinstance(target, ast.Starred):
        return _targets(target.value)
    name = _name(target)
    return [name] if name else []
