"""Small, pure questions about libcst expressions.

Everything here looks at one expression (never the whole module), so the facts pass can ask
these questions while it walks the tree once.
"""
from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Iterator, Optional

import libcst as cst

from devlint.lint.traverse import NODE_TYPES, content_fields

CUDA_LITERAL = re.compile(r"^cuda(:\d+)?$")
# Names that hold a device by convention (`dev_loader` is a development-set loader, not one).
DEVICE_NAME = re.compile(r"^(dev|gpu|gpu_id|rank|local_rank)$|device", re.IGNORECASE)

# Methods that return a tensor on the same device as their receiver.
DEVICE_PRESERVING_METHODS = frozenset(
    {
        "view", "reshape", "float", "double", "half", "bfloat16", "long", "int", "bool", "byte",
        "squeeze", "unsqueeze", "permute", "transpose", "flatten", "contiguous", "clone",
        "detach", "t", "expand", "repeat", "narrow", "chunk", "split", "type_as", "view_as",
        "reshape_as", "requires_grad_", "softmax", "log_softmax", "argmax", "mean", "sum",
        "float_", "sigmoid", "exp", "log", "abs", "clamp", "masked_fill", "__getitem__",
        "squeeze_", "unsqueeze_", "to_dense",
        # in place: the result is the receiver
        "fill_", "zero_", "scatter_", "normal_", "uniform_", "random_", "bernoulli_",
        "index_fill_", "masked_fill_", "copy_", "add_", "mul_", "clamp_",
    }
)
# Methods whose result lives on the host (or is not a tensor at all).
HOST_METHODS = frozenset({"cpu", "numpy", "item", "tolist", "size", "dim", "numel", "keys"})
DTYPE_ATTRS = frozenset(
    {
        "float", "float16", "float32", "float64", "half", "double", "bfloat16", "int", "int8",
        "int16", "int32", "int64", "long", "uint8", "bool", "complex64", "complex128", "short",
        "dtype",
    }
)
NON_DEVICE_TO_KEYWORDS = frozenset({"dtype", "memory_format", "copy", "non_blocking"})


def dotted(node: cst.CSTNode) -> Optional[str]:
    """`self.model` for Attribute chains of Names, `model` for a Name, else None."""
    if type(node) is cst.Name:
        return node.value
    if type(node) is cst.Attribute:
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def last_part(name: Optional[str]) -> str:
    return "" if not name else name.rsplit(".", 1)[-1]


def is_none_literal(node: Any) -> bool:
    """The literal `None`."""
    return type(node) is cst.Name and node.value == "None"


def string_value(node: cst.CSTNode) -> Optional[str]:
    """The value of a plain string literal, or None (f-strings and concatenations are None)."""
    if type(node) is cst.SimpleString:
        text = node.value
        if text[0] in "'\"" and "\\" not in text and text[:3] not in ('"""', "'''"):
            return text[1:-1]  # no prefix, no escape, one quote: evaluating it is slicing it
        try:
            value = ast.literal_eval(node.value)
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    return None


def is_cuda_literal(node: cst.CSTNode) -> bool:
    value = string_value(node)
    return value is not None and CUDA_LITERAL.match(value) is not None


def method_call(node: cst.CSTNode) -> Optional[tuple[cst.BaseExpression, str]]:
    """(receiver, method name) when node is `receiver.method(...)`."""
    if type(node) is cst.Call and type(node.func) is cst.Attribute:
        return node.func.value, node.func.attr.value
    return None


def positional_args(call: cst.Call) -> list[cst.Arg]:
    return [a for a in call.args if a.keyword is None and not a.star]


def keyword_arg(call: cst.Call, name: str) -> Optional[cst.Arg]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def is_dtype_expr(node: cst.CSTNode) -> bool:
    """`torch.float32`, `x.dtype`, `dtype`: a `.to()` argument that changes type, not device."""
    if type(node) is cst.Attribute:
        return node.attr.value in DTYPE_ATTRS
    if type(node) is cst.Name:
        return "dtype" in node.value.lower()
    return False


def is_device_expr(node: cst.CSTNode, device_names: frozenset[str] = frozenset()) -> bool:
    """An expression that names a device: `device`, `self.device`, `torch.device(...)`, 'cuda'."""
    if type(node) is cst.Name:
        return node.value in device_names or DEVICE_NAME.search(node.value) is not None
    if type(node) is cst.Attribute:
        attr = node.attr.value
        return DEVICE_NAME.search(attr) is not None
    if type(node) is cst.Call:
        callee = dotted(node.func)
        return callee in ("torch.device", "device")
    value = string_value(node)
    if value is not None:
        return value in ("cpu", "mps", "xpu") or CUDA_LITERAL.match(value) is not None
    return False


def is_to_device_call(node: cst.CSTNode) -> bool:
    """`x.to(<not only a dtype>)` or `x.cuda(...)`: a call that returns a copy on a device."""
    mc = method_call(node)
    if mc is None:
        return False
    _, method = mc
    assert type(node) is cst.Call
    if method == "cuda":
        return True
    if method != "to":
        return False
    positional = positional_args(node)
    if positional:
        return not is_dtype_expr(positional[0].value)
    keywords = {a.keyword.value for a in node.args if a.keyword is not None}
    return "device" in keywords or bool(keywords - NON_DEVICE_TO_KEYWORDS)


def has_device_argument(call: cst.Call, device_names: frozenset[str] = frozenset()) -> bool:
    """A call handed a device (`to_device(batch, device)`, `torch.tensor(x, device=d)`)."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "device":
            return True
        if arg.keyword is None and not arg.star and is_device_expr(arg.value, device_names):
            # A bare string 'cpu' handed to an arbitrary helper is not a move to a device.
            if string_value(arg.value) is None:
                return True
    return False


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Pre-order walk of a subtree's content (no whitespace, operators, brackets). The model
    asks for the same subtrees many times over (a function's body for each of its callers,
    each rule's own questions), so the first walk of a subtree records its pre-order once
    (`_index`) and every later walk of it, or of any node inside it, is a slice of that
    record: about six walks per node on real code become one."""
    entry = _WALKS.get(id(node))
    if entry is None or entry[0][entry[1]] is not node:  # never walked (or not this node)
        entry = _index(node)
    order, start, end = entry
    return iter(order[start:end])


def _index(root: cst.CSTNode) -> tuple:
    """Record the pre-order of `root`'s subtree and, for each node in it, where its own
    subtree starts and ends in that order. Iterative, so deep nesting cannot recurse. The
    record holds its nodes, so no node's `id` is reused while it is recorded."""
    if len(_WALKS) > MAX_WALKED_NODES:
        _WALKS.clear()
    order: list = []
    counts: list = []
    stack = [root]
    pop, push = stack.pop, stack.extend
    while stack:
        current = pop()
        order.append(current)
        found = content_children(current)
        counts.append(len(found))
        if found:
            found.reverse()
            push(found)
    # Reversed, a pre-order lists every node after its subtree: its children's subtrees are
    # the last `count` sizes done.
    sizes = [0] * len(order)
    done: list = []
    for i in range(len(order) - 1, -1, -1):
        size = 1
        for _ in range(counts[i]):
            size += done.pop()
        sizes[i] = size
        done.append(size)
    for i, current in enumerate(order):
        _WALKS[id(current)] = (order, i, i + sizes[i])
    return _WALKS[id(root)]


def forget_walks() -> None:
    """Drop the recorded walks (`walk`): between files, so that the record holds no tree
    that is gone."""
    _WALKS.clear()


# id(node) -> (the pre-order it was recorded in, its subtree's start and end there)
_WALKS: dict = {}
MAX_WALKED_NODES = 1_000_000  # about 150 MB of records at most: past it, start again


def content_children(node: cst.CSTNode) -> list:
    """A node's content children in source order (no whitespace, operators, brackets), read
    from its fields: what `walk` descends into, for a walk that prunes on its own."""
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = content_fields(kind)
    found = []
    for name in names:
        value = getattr(node, name)
        held = type(value)
        if held in NODE_TYPES:
            found.append(value)
        elif held is tuple or held is list:
            found += [v for v in value if type(v) in NODE_TYPES]
    return found


_FIELDS: dict = {}  # node type -> its content fields (`content_fields`, read without a call)


def calls_in(node: cst.CSTNode) -> tuple[cst.Call, ...]:
    """The calls of a subtree in walk order (the facts pass has them for calls it has left:
    `_FactsVisitor.calls_within`)."""
    return tuple(sub for sub in walk(node) if type(sub) is cst.Call)


def moves_among(calls: Iterable[cst.Call], device_names: frozenset[str] = frozenset()) -> bool:
    return any(is_to_device_call(call) or has_device_argument(call, device_names)
               for call in calls)


def contains_move(node: cst.CSTNode, device_names: frozenset[str] = frozenset()) -> bool:
    return moves_among(calls_in(node), device_names)


def identifier_words(node: cst.CSTNode) -> Iterator[str]:
    """Every name, attribute and string word in an expression, lower-cased."""
    for sub in walk(node):
        if type(sub) is cst.Name:
            yield sub.value.lower()
        elif type(sub) is cst.SimpleString:
            value = string_value(sub)
            if value is not None:
                yield value.lower()


def target_names(target: cst.BaseExpression) -> list[Optional[str]]:
    """Flatten `x`, `(x, y)`, `[x, *rest]` into names; None stands for a non-name slot."""
    if type(target) is cst.Name:
        return [target.value]
    if type(target) in (cst.Tuple, cst.List):
        out: list[Optional[str]] = []
        for element in target.elements:
            value = element.value
            if type(element) is cst.StarredElement:
                out.append(None)
            elif type(value) is cst.Name:
                out.append(value.value)
            else:
                out.extend(target_names(value))
        return out
    return [None]


def tuple_elements(node: cst.BaseExpression) -> Optional[list[cst.BaseExpression]]:
    if type(node) in (cst.Tuple, cst.List) and not any(
        type(e) is cst.StarredElement for e in node.elements
    ):
        return [e.value for e in node.elements]
    return None


# --- tensor factories (DEV006, DEV010, DEV012) ------------------------------------------------

# `torch.<name>(...)` calls that make a new tensor, on the default device unless given `device=`.
TENSOR_FACTORIES = frozenset(
    {
        "zeros", "ones", "full", "empty", "randn", "rand", "randint", "randperm", "arange",
        "eye", "linspace", "logspace", "tensor", "as_tensor", "from_numpy", "Tensor",
        "FloatTensor", "LongTensor", "DoubleTensor", "IntTensor", "BoolTensor", "ByteTensor",
        "HalfTensor", "tril_indices", "triu_indices", "normal", "bernoulli", "multinomial",
    }
)
# Factories whose arguments are a shape: no argument, `()` or `[]` is a 0-dim tensor.
SHAPE_FACTORIES = frozenset({"zeros", "ones", "empty", "randn", "rand", "full"})
# Factories whose arguments are the data: `torch.tensor(0.5)` is 0-dim, `torch.tensor([..])` not.
DATA_FACTORIES = frozenset({"tensor", "as_tensor", "Tensor", "FloatTensor", "LongTensor",
                            "DoubleTensor", "IntTensor", "BoolTensor", "ByteTensor", "HalfTensor"})
SCALAR_CASTS = frozenset({"float", "int", "bool", "len", "max", "min", "sum", "round", "abs"})


ONE_DIM_FACTORIES = frozenset({"linspace", "logspace", "arange", "randperm"})
# NumPy functions whose array has one dimension at least, whatever they are given.
ARRAY_BUILDERS = frozenset({"concatenate", "stack", "vstack", "hstack", "column_stack", "arange",
                            "linspace", "cumsum", "cumprod", "diff", "atleast_1d", "flatnonzero"})


def _array_builder(name: Optional[str]) -> bool:
    if not name or "." not in name:
        return False
    module, _, function = name.rpartition(".")
    return module in ("np", "numpy") and function in ARRAY_BUILDERS


# Reductions that keep the other axes when given one: `Y.sum(0)`, `np.sum(Y, axis=0)`.
_AXIS_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "std", "var", "count_nonzero", "nansum"})


def reduced_along_an_axis(data: cst.BaseExpression, scope: cst.CSTNode) -> bool:
    """Data computed from a reduction along one axis (`pos = Y[idx].sum(0)`, then `neg / pos`),
    or from `np.bincount`, followed through the names `scope` assigns, two deep: per-column
    counts, an array of one dimension at least. (An axis is written for an array of two or
    more; a 1-D array's total is `.sum()`.)"""
    assigned: dict = {}  # name -> the values `scope` assigns it
    for node in walk(scope):
        if type(node) is cst.Assign:
            for target in node.targets:
                if type(target.target) is cst.Name:
                    assigned.setdefault(target.target.value, []).append(node.value)
    return _reduced(data, assigned, 0)


def _reduced(data: cst.BaseExpression, assigned: dict, depth: int) -> bool:
    for sub in walk(data):
        if type(sub) is cst.Call:
            name = dotted(sub.func) or (sub.func.attr.value if type(sub.func) is cst.Attribute else "")
            last = name.rsplit(".", 1)[-1]
            if last == "bincount":
                return True
            if last in _AXIS_REDUCTIONS:
                positional = positional_args(sub)
                method = type(sub.func) is cst.Attribute and \
                    name.split(".", 1)[0] not in ("np", "numpy", "torch")
                if keyword_arg(sub, "axis") is not None or (
                        len(positional) >= (1 if method else 2) and
                        type(positional[-1 if method else 1].value) is cst.Integer):
                    return True
        elif type(sub) is cst.Name and depth < 2 and any(
                _reduced(value, assigned, depth + 1) for value in assigned.get(sub.value, ())):
            return True
    return False


def factory_dims(call: cst.Call) -> Optional[int]:
    """How many dimensions a factory's tensor has, where its arguments say so: 1 for
    `torch.linspace(...)`, 2 for `torch.zeros(n, d)` or `torch.zeros((n, d))`; None when the
    shape is a value (`torch.zeros(shape)`, `torch.zeros(*shape)`)."""
    name = tensor_factory(call) or ""
    if name in ONE_DIM_FACTORIES:
        return 1
    if name == "randint":  # `randint(high, size)`, `randint(low, high, size)`: size is a tuple
        keyword, positional = keyword_arg(call, "size"), positional_args(call)
        size = keyword.value if keyword is not None else (
            positional[-1].value if len(positional) >= 2 else None)
        if type(size) in (cst.Tuple, cst.List) and all(type(e) is cst.Element for e in size.elements):
            return len(size.elements)
        return None
    if name not in SHAPE_FACTORIES or any(a.star for a in call.args) or keyword_arg(call, "size"):
        return None
    positional = positional_args(call)
    return shape_length(positional[:-1] if name == "full" else positional)


def shape_length(shape: list[cst.Arg]) -> Optional[int]:
    """The number of dimensions a written shape has: `(n, d)` or `n, d` has 2, `-1` has 1; None
    when the shape is a value (`shape`, `*shape`)."""
    if any(a.star or a.keyword is not None for a in shape):
        return None
    if len(shape) == 1:
        only = shape[0].value
        if type(only) in (cst.Tuple, cst.List):
            elements = only.elements
            return len(elements) if all(type(e) is cst.Element for e in elements) else None
        return 1 if type(only) in (cst.Integer, cst.UnaryOperation) else None
    return len(shape) or None


def tensor_factory(node: cst.CSTNode) -> Optional[str]:
    """`zeros` for `torch.zeros(...)` (also `th.zeros`), else None. Only the `torch` module:
    `np.zeros` is a host array that never meets a device."""
    if type(node) is not cst.Call:
        return None
    callee = dotted(node.func)
    if callee is None or "." not in callee:
        return None
    module, name = callee.rsplit(".", 1)
    if module in ("torch", "th") and name in TENSOR_FACTORIES:
        return name
    return None


def factory_rank(call: cst.Call) -> str:
    """'scalar' (0-dim: PyTorch lets a CPU scalar meet CUDA tensors), 'tensor' (at least one
    dimension) or 'unknown' (`torch.tensor(values)`: the data decides)."""
    name = tensor_factory(call) or ""
    positional = positional_args(call)
    if name in SHAPE_FACTORIES:
        shape = positional[:-1] if name == "full" else positional
        if not shape and keyword_arg(call, "size") is None:
            return "scalar" if not any(a.star for a in call.args) else "unknown"
        if len(shape) == 1 and type(shape[0].value) in (cst.Tuple, cst.List) and not shape[0].value.elements:
            return "scalar"
        return "tensor"
    if name in DATA_FACTORIES:
        if not positional:
            return "unknown"
        data = positional[0].value
        if type(data) in (cst.List, cst.Tuple, cst.ListComp):
            return "tensor"
        if name not in ("tensor", "as_tensor"):
            # `torch.FloatTensor(3)` is three uninitialised numbers, not the number 3.
            return "tensor" if len(positional) > 1 or type(data) is cst.Integer else "unknown"
        if type(data) in (cst.Integer, cst.Float, cst.UnaryOperation):
            return "scalar"
        if type(data) is cst.Call and dotted(data.func) in SCALAR_CASTS:
            return "scalar"
        if type(data) is cst.Call and _array_builder(dotted(data.func)):
            return "tensor"  # `torch.tensor(np.concatenate([[0], np.cumsum(sizes)[:-1]]))`
        mc = method_call(data)
        if mc is not None and mc[1] == "item":
            return "scalar"
        if mc is not None and mc[1] == "to_numpy":
            return "tensor"  # a pandas column or frame: one dimension at least
        return "unknown"
    return "tensor"


def is_host_factory(node: cst.CSTNode, allow_unknown_rank: bool = False) -> bool:
    """A factory call that puts a tensor of at least one dimension on the CPU: no `device=`
    (and no positional device, as in `torch.tensor(x, device)` which is not valid anyway)."""
    if tensor_factory(node) is None:
        return False
    assert type(node) is cst.Call
    if keyword_arg(node, "device") is not None:
        return False
    rank = factory_rank(node)
    return rank == "tensor" or (allow_unknown_rank and rank == "unknown")


def is_host_move(node: cst.CSTNode) -> bool:
    """`.cpu()`, `.to('cpu')`, `.to(device='cpu')`, `.to(torch.device('cpu'))`."""
    mc = method_call(node)
    if mc is None:
        return False
    assert type(node) is cst.Call
    if mc[1] == "cpu":
        return True
    if mc[1] != "to":
        return False
    positional = positional_args(node)
    arg = positional[0].value if positional else None
    keyword = keyword_arg(node, "device")
    arg = keyword.value if keyword is not None else arg
    if arg is None:
        return False
    if type(arg) is cst.Call and dotted(arg.func) == "torch.device":
        inner = positional_args(arg)
        arg = inner[0].value if inner else arg
    return string_value(arg) == "cpu"


def append_keyword(call: cst.Call, text: str) -> Optional[tuple[cst.CSTNode, str]]:
    """(node, replacement) that adds `, text` after the last argument of `call`: a minimal
    edit that keeps the call's layout and comments."""
    if not call.args:
        return None
    last = call.args[-1].value
    return last, cst.Module([]).code_for_node(last) + f", {text}"


def is_main_test(test: Any) -> bool:
    """`__name__ == "__main__"`, either way round."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    if type(target.operator) is not cst.Equal:
        return False
    sides = (test.left, target.comparator)
    return any(type(side) is cst.Name and side.value == "__name__" for side in sides) and \
        any(string_value(side) == "__main__" for side in sides)
