"""Whether a project writes its modules' state from CPU tensors: the fact DEV008 asks of a
checkpoint whose origin the checked file does not show.

`torch.load` without `map_location` fails on a machine without a GPU only where the file holds
CUDA tensors. Many projects write their weights through one save function that copies every
tensor to the CPU first (BasicSR's and KAIR's `save_network`: `for key, param in
state_dict.items(): state_dict[key] = param.cpu()`), so the weights they publish, and their
users load, hold CPU tensors. A project *saves on host* when one of its `torch.save` calls
writes a module's state, or a tensor, proven copied to the CPU (that loop, also over
`.keys()`, `{k: v.cpu() ...}`, `model.cpu().state_dict()`, `x.cpu()`, `.to("cpu")`,
`.to(torch.device("cpu"))`, or a module built where it is saved in a file that moves nothing),
and none writes a module's state straight from the module (`torch.save(model.state_dict(),
...)`, `{"model": net.state_dict()}`), which holds the tensors where the module is. An
optimizer's or a scheduler's state says nothing about the weights.

The project's files are read as text (those naming `torch.save` are parsed with CPython's `ast`,
never libcst, never imported), each file once per process and version. The answer is `None`
where the project walk is not known (too many files).
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from devlint.workspace.project import project_of

HOST, DEVICE = "host", "device"
NOT_WEIGHTS = re.compile(r"optim|sched|scaler|args|config|opt$|hparams", re.I)

_FILES: dict = {}  # (path, size, mtime) -> frozenset of the kinds its saves write
# Bytes one question may read that no earlier one did: past it the answer is unknown (a
# monorepo's first DEV008 candidate must not stall an editor); later questions read on.
SCAN_BUDGET = 64 << 20


def host_saving(path: str) -> Optional[bool]:
    """Whether the project of `path` writes its modules' state from CPU tensors (see above);
    None where that is not known (no project walk, or more to read than the budget)."""
    from devlint.workspace.importers import file_facts, project_sources

    sources = project_sources(project_of(str(path)).root)
    if sources is None:
        return None
    kinds: set = set()
    python = [source for source in sources if str(source).endswith(".py")]
    for found in file_facts(python, _FILES, _kinds_of, SCAN_BUDGET):
        if found is None:
            return None
        kinds |= found
        if DEVICE in kinds:
            return False
    return HOST in kinds


def _kinds_of(data: Optional[bytes]) -> frozenset:
    return save_kinds(data) if data is not None and b"torch.save" in data else frozenset()


def save_kinds(data: bytes) -> frozenset:
    """What the `torch.save` calls of one file write: HOST, DEVICE, or neither (unknown)."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return frozenset()
    kinds = set()
    # A module built where it is saved (`n = nn.Sequential()`, filled from a Lua model, then
    # `torch.save(n.state_dict(), ...)`), in a file that never names a device nor moves
    # anything, is where it was built: on the CPU.
    moves = _MOVES.search(data) is not None
    for scope in _scopes(tree):
        for node in _own_nodes(scope):
            if type(node) is ast.Call and _is_torch_save(node):
                saved = node.args[0] if node.args else next(
                    (k.value for k in node.keywords if k.arg == "obj"), None)
                kind = _kind(saved, scope) if saved is not None else None
                if kind == DEVICE and not moves and _built_in(saved, scope):
                    kind = HOST
                if kind is not None:
                    kinds.add(kind)
    return frozenset(kinds)


def _kind(node: ast.AST, scope: ast.AST, depth: int = 0) -> Optional[str]:
    if _on_host(node):
        return HOST
    if type(node) is ast.Dict:
        found = {_kind(v, scope, depth) for v in node.values if v is not None}
        return DEVICE if DEVICE in found else HOST if HOST in found else None
    if type(node) is ast.Name and depth < 2:
        if _converted_in_loop(node.id, scope):
            return HOST  # `for k, p in sd.items(): sd[k] = p.cpu()`
        items = [_kind(value, scope, depth + 1) for value in _items_assigned(node.id, scope)]
        if items and all(kind == HOST for kind in items):
            return HOST  # `save_dict[key] = state_dict`, each converted
        return None
    if _state_of_a_module(node):
        return DEVICE
    return None


def _on_host(node: ast.AST) -> bool:
    """`x.cpu()`, `x.to("cpu")`, `model.cpu().state_dict()`, `{k: v.cpu() for ...}`."""
    if type(node) is ast.DictComp:
        return _on_host(node.value)
    if type(node) is not ast.Call or type(node.func) is not ast.Attribute:
        return False
    method = node.func.attr
    if method == "cpu":
        return True
    if method == "to":
        target = node.args[0] if node.args else next(
            (k.value for k in node.keywords if k.arg == "device"), None)
        if type(target) is ast.Call and _is_torch_device(target.func) and target.args:
            target = target.args[0]  # `.to(torch.device("cpu"))`
        return type(target) is ast.Constant and target.value == "cpu"
    if method in ("state_dict", "detach", "clone", "float", "half", "contiguous"):
        return _on_host(node.func.value)
    return False


def _state_of_a_module(node: ast.AST) -> bool:
    """`model.state_dict()`, `net.module.state_dict()`, not copied to the CPU; an optimizer's
    or a scheduler's state is not a module's."""
    if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "state_dict":
        return NOT_WEIGHTS.search(ast.unparse(node.func.value)) is None
    return False


def _converted_in_loop(name: str, scope: ast.AST) -> bool:
    """`for k, p in sd.items(): sd[k] = p.cpu()`, or over `sd.keys()` or `sd` itself."""
    for node in _own_nodes(scope):
        walked = node.iter if type(node) is ast.For else None
        if type(walked) is ast.Call and type(walked.func) is ast.Attribute and \
                walked.func.attr in ("items", "keys") and not walked.args:
            walked = walked.func.value
        if type(walked) is ast.Name and walked.id == name:
            for inner in ast.walk(node):
                if type(inner) is ast.Assign and any(_item_of(t, name) for t in inner.targets) \
                        and _on_host(inner.value):
                    return True
    return False


def _items_assigned(name: str, scope: ast.AST) -> list:
    return [node.value for node in _own_nodes(scope) if type(node) is ast.Assign
            and any(_item_of(t, name) for t in node.targets)]


def _item_of(target: ast.AST, name: str) -> bool:
    return type(target) is ast.Subscript and type(target.value) is ast.Name and target.value.id == name


def _built_in(saved: ast.AST, scope: ast.AST) -> bool:
    """`n.state_dict()` of an `n` this scope builds from a class (`n = nn.Sequential()`)."""
    owner = saved.func.value if type(saved) is ast.Call and type(saved.func) is ast.Attribute \
        else None
    if type(owner) is not ast.Name:
        return False
    values = [node.value for node in _own_nodes(scope) if type(node) is ast.Assign
              and any(type(t) is ast.Name and t.id == owner.id for t in node.targets)]
    return bool(values) and all(_of_a_class(value) for value in values)


def _of_a_class(value: ast.AST) -> bool:
    callee = value.func if type(value) is ast.Call else None
    name = callee.attr if type(callee) is ast.Attribute else \
        callee.id if type(callee) is ast.Name else ""
    return name[:1].isupper()


def _is_torch_device(func: ast.AST) -> bool:
    return type(func) is ast.Attribute and func.attr == "device" and \
        type(func.value) is ast.Name and func.value.id == "torch"


_MOVES = re.compile(rb"cuda|device|\.to\(|accelerat|\bprepare\(")


def _is_torch_save(call: ast.Call) -> bool:
    func = call.func
    return type(func) is ast.Attribute and func.attr == "save" and \
        type(func.value) is ast.Name and func.value.id == "torch"


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _scopes(tree: ast.AST):
    yield tree
    for node in ast.walk(tree):
        if type(node) in _SCOPES:
            yield node


def _own_nodes(scope: ast.AST):
    """The nodes of a scope, not those of the functions and classes inside it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if type(node) not in _SCOPES:
            stack.extend(ast.iter_child_nodes(node))
