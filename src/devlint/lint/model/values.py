"""What an expression can hold, as far as devices go: a small lattice of places and the kinds of
value that carry one.

A value is frozen and compared by content (libcst nodes inside compare by identity), so states
can be joined and tested for a fixpoint cheaply. `join` is the only way two values meet: the
same kind joins field by field, different kinds give `OPAQUE`.

Two worlds are tracked at once. The *accelerator world* is the run the user means when a GPU is
present (availability checks are true, device flags chosen); places describe it. The *CPU world*
is the same program on a machine without one; it matters for hard-coded CUDA (DEV001) and for
checkpoints (DEV008), and only devices and flags carry it (`Device.cpu`, `Flag.cpu`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, Optional


class Place(IntEnum):
    """Where a tensor or a module lives in the accelerator world."""

    NONE = 0  # bottom: no value reached here yet
    HOST = 1
    DEVICE = 2
    EITHER = 3  # host on some paths, the device on others: never reported
    UNKNOWN = 4  # top: nothing is known


def join_place(a: Place, b: Place) -> Place:
    if a is b:
        return a
    if a is Place.NONE:
        return b
    if b is Place.NONE:
        return a
    if Place.UNKNOWN in (a, b):
        return Place.UNKNOWN
    return Place.EITHER


class Value:
    """Base of every abstract value."""

    __slots__ = ()
    place = Place.UNKNOWN


@dataclass(frozen=True)
class Opaque(Value):
    """Nothing is known: an unknown call's result, an unresolved import, a parameter."""

    name: str = ""  # how the code spells it, when it is a name or attribute (for priors)
    # an argument of a caller devlint does not see (a function run on its own, an object built
    # from unknown arguments): anything, a tensor on the device too
    unseen_arg: bool = field(default=False, compare=False)


OPAQUE = Opaque()
# What code of the project that devlint cannot settle gives (one of two functions, by a
# condition): unknown, and named so that no convention reads the name it is bound to.
PROJECT_MADE = Opaque("<project>")


@dataclass(frozen=True)
class Array(Value):
    """A NumPy array: never a tensor, never on a device. `ranked`: it has a dimension at least,
    proven by how it was made (`np.zeros(capacity)`, `np.array([...])`, `buf[idx]` of such an
    array by an array of indices), so the tensor `torch.as_tensor(a)` makes of it is no 0-dim
    number, which PyTorch would let meet a device tensor."""

    ranked: bool = False
    node: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Optimizer(Value):
    """A torch optimizer (`torch.optim.AdamW(model.parameters())`) built on the parameters of
    the module whose `ident` is `params`. Otherwise as unknown as any object."""

    params: int = 0
    node: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Maybe(Value):
    """A name bound on some paths only: reading it gives `value`, a fix may not use it."""

    value: Value


@dataclass(frozen=True)
class Scalar(Value):
    """A Python number, bool or None: meets device tensors freely."""

    text: Optional[str] = None  # a string's value, when known (paths, device names)
    template: Optional[str] = None  # a path's shape with unknown parts as `{}` (DEV008)
    number: Optional[float] = None
    node: Any = field(default=None, compare=False, repr=False)  # the literal
    # A path built from the process's rank (`f"queue{rank}.pth"`): each rank has a file of its own.
    per_rank: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Flag(Value):
    """A truth value in both worlds: True, False or None (unknown)."""

    accel: Optional[bool]
    cpu: Optional[bool]
    availability: bool = field(default=False, compare=False)  # asks whether a GPU is there
    # asks where a value already is (`x.is_cuda`): code that follows its data, not a choice of
    # device for the program (the data's placer made that one)
    of_data: bool = field(default=False, compare=False)
    # its truth on a machine with exactly one GPU, the commonest GPU machine, where the accel
    # world cannot say (`torch.cuda.device_count() > 1`: False there)
    one_gpu: Optional[bool] = field(default=None, compare=False)


UNKNOWN_FLAG = Flag(None, None)


@dataclass(frozen=True)
class Device(Value):
    """A device object or string. `accel`/`cpu`: what it is in each world, as 'host',
    'accel' or None (unknown). `spelled`: an expression naming it that a fix can reuse."""

    accel: Optional[str]
    cpu: Optional[str]
    node: Any = field(default=None, compare=False, repr=False)
    index: Optional[int] = None  # `cuda:0`, `torch.device('cuda', 0)`
    spelled: Optional[str] = None
    conditional: bool = field(default=False, compare=False)  # chosen by `a if c else b`

    @property
    def place(self) -> Place:  # type: ignore[override]
        return {"host": Place.HOST, "accel": Place.DEVICE}.get(self.accel or "", Place.UNKNOWN)

    @property
    def fallback(self) -> bool:
        """Chooses the accelerator when present and the CPU otherwise."""
        return self.accel == "accel" and self.cpu == "host"


@dataclass(frozen=True)
class Tensor(Value):
    """A tensor. `why` says what made it, which is what the rules word their findings by:
    factory (`torch.zeros(...)` without `device=`), batch (yielded by a data loader), moved
    (`.to(device)`), output (of a model or an operation), input (an argument of `forward`),
    param (a parameter or buffer: where its module is), attr (a plain tensor attribute set in
    `__init__`), weight (a loss's class weight), encoding (a tokenizer's `return_tensors="pt"`
    output, or a tensor taken out of it), cast (`.type(torch.FloatTensor)` of a device tensor),
    data (anything else)."""

    place: Place
    why: str = "data"
    node: Any = field(default=None, compare=False, repr=False)  # the node that made it
    loop: Any = field(default=None, compare=False, repr=False)  # batch: the loop or call that drew it
    plain: bool = True  # a tensor for sure (a whole batch may be a BatchEncoding or a tuple)
    scalar: bool = False  # 0-dim: PyTorch lets a CPU scalar meet CUDA tensors
    device: Optional[Device] = None  # where it was moved or made
    assumed: bool = False  # placed by a convention (see `knowledge`), not by the code
    bound: Any = field(default=None, compare=False, repr=False)  # (name, node) where a batch got its name
    premoved: Any = field(default=None, compare=False, repr=False)  # batch: the move before its loop
    discarded: Any = field(default=None, compare=False, repr=False)  # a discarded `.to()` left it here
    attr: Any = field(default=None, compare=False, repr=False)  # attr: (class name, attribute, store node)
    dict_like: bool = False  # a batch used as a mapping (`batch["x"]`, `**batch`)
    dims: Optional[int] = None
    moved_by: Any = field(default=None, compare=False, repr=False)  # (statement, loops) that moved it
    moved_at: Any = field(default=None, compare=False, repr=False)  # the transfer (of it or its model)
    # one of the samples' tensors in a tuple field of a batch (`targets` of a `collate_fn`
    # returning `tuple(zip(*batch))`): moved one by one, not with `.to()` on the field
    held: bool = False
    # param: the `ident` of the module whose parameter or buffer it is (`ema.parameters()`)
    owner: int = field(default=0, compare=False, repr=False)
    # an object of unknown kind that the code moved (`m.cuda()` of a detector built elsewhere):
    # a model, a batch object or a tensor, so its attributes (`m.width`) are not proven tensors
    of_object: bool = False
    # an attribute of such an object (`m.cfg`): of unknown kind, and an entry of it (`m.cfg["size"]`,
    # `m.reps[0]`) is unknown, unlike an entry of the moved object itself (`batch["x"]`)
    member: bool = False
    # a host tensor read as a field of an object of the code's own class (`graph.y` of a
    # `Graph` dataclass): the `ident` of that object, whose fields the code may move one by one
    field_of: int = field(default=0, compare=False, repr=False)


class _Attributes:
    """What `__init__` set up on an object: (name, Value) pairs, replaced, never mutated."""

    __slots__ = ()
    attrs: tuple

    def attr(self, name: str) -> Optional[Value]:
        for key, value in self.attrs:
            if key == name:
                return value
        return None

    def with_attr(self, name: str, value: Value):
        return replace(self, attrs=_set(self.attrs, name, value))


@dataclass(frozen=True)
class Module(_Attributes, Value):
    """An `nn.Module` (or a model of unknown class that the code moves and calls)."""

    place: Place
    node: Any = field(default=None, compare=False, repr=False)  # where it was built
    cls: Any = field(default=None, repr=False)  # the `ClassInfo` of a class of this file
    attrs: tuple = ()  # (name, Value) set up by `__init__`
    moves_inputs: bool = False  # DataParallel, DDP with device_ids, Lightning, accelerate; after
    # a join, on some path: where its inputs end up is then unknown, and unknown stays silent
    moved_at: Any = field(default=None, compare=False, repr=False)  # the transfer that put it there
    device: Optional[Device] = None
    loss: bool = False
    weight: Optional[Value] = None  # a loss's class weight
    assumed: bool = False
    ident: int = 0  # one allocation: aliases of a module moved in place move too
    spelled: Optional[str] = None
    stateless: bool = False  # no parameters or buffers (ReLU, pooling)
    host_lengths: bool = False  # CTCLoss: its length arguments may stay on the CPU
    answers_tensor: bool = False  # a torch layer whose answer is one tensor (`nn.Linear`)
    classes: tuple = field(default=(), repr=False)  # after a join of modules of different
    # classes (`cls` is then None): the classes of the project it may be of
    training: Optional[bool] = None  # set by `.train()` / `.eval()`; None: unknown
    metric: bool = False  # a library's metric (torchmetrics): only its predictions and targets
    # are known to meet its state; what else it takes (a retrieval metric's `indexes`) it only
    # sorts and indexes with, which any device may do
    nullable: bool = False  # None on some path (`model = build() if ok else None`): a join
    # keeps the module's kind (None meets no tensor), and this, so `model is None` stays unknown


@dataclass(frozen=True)
class Instance(_Attributes, Value):
    """An object of a class of this file that is no module (a trainer, a config)."""

    cls: Any
    attrs: tuple = ()
    ident: int = 0


@dataclass(frozen=True)
class Iterable(Value):
    """Something a `for` walks: a data loader (`loader=True`), `range`, `enumerate(...)`.
    `element` is what each iteration binds."""

    element: Value
    loader: bool = False
    node: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Seq(Value):
    """A Python tuple, list or dict. `items` when the elements are known one by one (a
    display), `element` the join of them all; `keys` for a dict display with string keys."""

    kind: str  # "tuple", "list", "dict"
    items: Optional[tuple] = None
    element: Value = OPAQUE
    keys: Optional[tuple] = None
    node: Any = field(default=None, compare=False, repr=False)

    @property
    def place(self) -> Place:  # type: ignore[override]
        return self.element.place


@dataclass(frozen=True)
class Lazy(Value):
    """A name a summarised module imports from another project file, read only when some code
    uses it (`lookup`): a summary's own imports are most of a project run's parses, and most of
    them are names the importer's code never reaches."""

    path: str
    name: str
    fallback: Value = field(compare=False, repr=False)
    levels: int = 0  # the depth of summaries left to the module that imported it


@dataclass(frozen=True)
class Ref(Value):
    """An imported module or name, by its qualified name (`torch.nn.Linear`). `cpu`: what a
    choice by a device condition gives on a machine without a GPU (`torch.FloatTensor` for
    `torch.cuda.FloatTensor if cuda else torch.FloatTensor`)."""

    qualname: str
    cpu: Optional[str] = field(default=None, compare=False)


@dataclass(frozen=True)
class Func(Value):
    """A function of this file. `closure`: the defining function's names, for nested ones.
    `gpu_world`: the function the paths with a GPU chose, where a path without one may hold
    another (`cast = lambda x: x.cuda()` under `if to_gpu:`, a plain one in the other arm): a
    run without a GPU that calls it does not surely run this one."""

    info: Any
    closure: Any = field(default=None, compare=False, hash=False)
    gpu_world: bool = field(default=False, compare=False, hash=False)


@dataclass(frozen=True)
class Partial(Value):
    """`functools.partial(f, *args, **kwargs)` of a function of this file."""

    func: Func
    args: tuple = ()
    kwargs: tuple = ()


@dataclass(frozen=True)
class Klass(Value):
    info: Any


@dataclass(frozen=True)
class Method(Value):
    func: Func
    receiver: Value
    receiver_node: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ProjectModule(Value):
    """A module of the project, by its file (or a namespace package, by its directory): its
    attributes are what its summary holds, or its submodules."""

    path: str


@dataclass(frozen=True)
class Namespace(Value):
    """`argparse`'s result or a config object: its attributes are the user's flags."""

    node: Any = field(default=None, compare=False, repr=False)
    # options that are on whatever the command line says (`action="store_true", default=True`)
    always: frozenset = field(default=frozenset(), compare=False, repr=False)


def _set(attrs: tuple, name: str, value: Value) -> tuple:
    return tuple((k, v) for k, v in attrs if k != name) + ((name, value),)


def unwrap(value: Value) -> Value:
    return value.value if type(value) is Maybe else value


def join(a: Optional[Value], b: Optional[Value]) -> Value:
    """The least value both `a` and `b` are: the only place two paths meet."""
    if a is None:
        return Maybe(b) if b is not None and type(b) is not Maybe else b or OPAQUE
    if b is None:
        return a if type(a) is Maybe else Maybe(a)
    if a is b or a == b:
        return a
    # `x if cond else None`: None meets no tensor, so the value is what the other path holds;
    # and `[collate, None]`: None is never called, so a function or None is the function.
    # A loader or a list of batches or None (`get_loader(val) if val is not None else None`) is
    # the loader wherever it is iterated.
    kinds = (Tensor, Module, Device, Func, Partial, Seq, Iterable)
    # `path = None`, then `path = 'state_dict/{0}_{1}'.format(...)` where the best epoch is saved:
    # a formatted path or None is that path wherever a file is opened (None opens nothing), so a
    # load of it reads what the save wrote
    if _is_none(a) and _formatted(b):
        return b
    if _is_none(b) and _formatted(a):
        return a
    if _is_none(a) and type(b) in kinds:
        return _nullable(b)
    if _is_none(b) and type(a) in kinds:
        return _nullable(a)
    if type(a) is Maybe or type(b) is Maybe:
        return Maybe(join(unwrap(a), unwrap(b)))
    if type(a) is not type(b):
        either = _tensor_or_tuple(a, b)
        if either is not None:
            return either
        # `if args.distributed: model = DDP(model, device_ids=[gpu])` over a model whose kind
        # the other path did not prove (DDP wraps only modules): a model that may move its
        # inputs itself, where, unknown
        wrapped = next((v for v in (a, b) if type(v) is Module and v.moves_inputs), None)
        if wrapped is not None:
            return replace(wrapped, place=Place.UNKNOWN, moved_at=None, device=None)
        return OPAQUE
    if type(a) in (Func, Klass):
        # `from utils_fasttext import build_iterator` in one arm, `from utils import ...` in the
        # other: project code devlint cannot settle, whose result no name convention reads
        # (`train_iter = build_iterator(...)` is not a DataLoader of CPU batches)
        return PROJECT_MADE
    joiner = _JOINERS.get(type(a))
    return joiner(a, b) if joiner is not None else OPAQUE


def _nullable(value: Value) -> Value:
    return replace(value, nullable=True) if type(value) is Module and not value.nullable else value


def _tensor_or_tuple(a: Value, b: Value) -> Optional[Value]:
    """`return logits, aux` in training and `return logits` otherwise: a model's answer that
    is a tensor or a tuple of tensors, all in one place, is a tensor-like answer there (not
    surely a tensor: `plain` is off, as for any model's answer)."""
    tensor, seq = (a, b) if type(a) is Tensor else (b, a)
    if type(tensor) is not Tensor or type(seq) is not Seq or seq.kind not in ("tuple", "list"):
        return None
    items = seq.items if seq.items is not None else (seq.element,)
    if not items or not all(type(i) is Tensor and i.place is tensor.place for i in items):
        return None
    return Tensor(tensor.place, "output", tensor.node, plain=False, device=tensor.device,
                  assumed=tensor.assumed or any(i.assumed for i in items))


def _formatted(value: Value) -> bool:
    """A string made from a template (`'{}_best.pth'.format(name)`), of no known text."""
    return type(value) is Scalar and value.template is not None and value.text is None


def _is_none(value: Value) -> bool:
    return type(value) is Scalar and value.text is None and value.number is None and \
        value.template is None and value.node is None


def _same(a: Any, b: Any) -> Any:
    return a if a is b or a == b else None


def _join_tensor(a: Tensor, b: Tensor) -> Tensor:
    return Tensor(
        join_place(a.place, b.place),
        a.why if a.why == b.why else "data",
        _same(a.node, b.node),
        _same(a.loop, b.loop),
        a.plain and b.plain,
        a.scalar and b.scalar,
        _same(a.device, b.device),
        a.assumed or b.assumed,
        _same(a.bound, b.bound),
        _same(a.premoved, b.premoved),
        _same(a.discarded, b.discarded),
        _same(a.attr, b.attr),
        a.dict_like or b.dict_like,
        _same(a.dims, b.dims),
        a.moved_by or b.moved_by,  # a name moved before a loop stays so for DEV003
        _same(a.moved_at, b.moved_at),
        a.held and b.held,
    )


def _join_attrs(a: tuple, b: tuple) -> tuple:
    left, right = dict(a), dict(b)
    return tuple((k, join(left.get(k), right.get(k))) for k in dict.fromkeys([*left, *right]))


def _join_module(a: Module, b: Module) -> Module:
    return Module(
        join_place(a.place, b.place),
        _same(a.node, b.node),
        _same(a.cls, b.cls),
        _join_attrs(a.attrs, b.attrs),
        a.moves_inputs or b.moves_inputs,
        _same(a.moved_at, b.moved_at),
        _same(a.device, b.device),
        a.loss and b.loss,
        join(a.weight, b.weight) if a.weight is not None and b.weight is not None else None,
        a.assumed or b.assumed,
        a.ident if a.ident == b.ident else 0,
        _same(a.spelled, b.spelled),
        a.stateless and b.stateless,
        a.host_lengths and b.host_lengths,
        a.answers_tensor and b.answers_tensor,
        _joined_classes(a, b),
        _same(a.training, b.training),
        a.metric and b.metric,
        a.nullable or b.nullable,
    )


def _joined_classes(a: Module, b: Module) -> tuple:
    if a.cls is b.cls and not a.classes and not b.classes:
        return ()
    found = [c for m in (a, b) for c in (m.classes or (m.cls,)) if c is not None]
    return tuple(dict.fromkeys(found))


def _join_instance(a: Instance, b: Instance) -> Value:
    if a.cls is not b.cls:
        return OPAQUE
    return Instance(a.cls, _join_attrs(a.attrs, b.attrs), a.ident if a.ident == b.ident else 0)


def _join_kind(a: Optional[str], b: Optional[str]) -> Optional[str]:
    return a if a == b else None


def _join_device(a: Device, b: Device) -> Device:
    return Device(_join_kind(a.accel, b.accel), _join_kind(a.cpu, b.cpu), _same(a.node, b.node),
                  _same(a.index, b.index), _same(a.spelled, b.spelled))


def _join_flag(a: Flag, b: Flag) -> Flag:
    return Flag(_same(a.accel, b.accel), _same(a.cpu, b.cpu), a.availability or b.availability)


def _join_seq(a: Seq, b: Seq) -> Value:
    if a.kind != b.kind:
        return OPAQUE
    items = None
    if a.items is not None and b.items is not None and len(a.items) == len(b.items):
        items = tuple(join(x, y) for x, y in zip(a.items, b.items))
    return Seq(a.kind, items, _join_elements(a, b), _same(a.keys, b.keys), _same(a.node, b.node))


def _join_elements(a: Seq, b: Seq) -> Value:
    """An empty display holds no element: the list a loop appended to (`outs = []` before it)
    holds what the loop appended, not the join with nothing known."""
    if a.items == () and b.items != ():
        return b.element
    if b.items == () and a.items != ():
        return a.element
    return join(a.element, b.element)


def _join_iterable(a: Iterable, b: Iterable) -> Iterable:
    return Iterable(join(a.element, b.element), a.loader and b.loader, _same(a.node, b.node))


def _join_scalar(a: Scalar, b: Scalar) -> Scalar:
    return Scalar(_same(a.text, b.text), _same(a.template, b.template), _same(a.number, b.number),
                  _same(a.node, b.node), a.per_rank and b.per_rank)


def _join_opaque(a: Opaque, b: Opaque) -> Opaque:
    return a if a.name == b.name else OPAQUE


def _join_array(a: Array, b: Array) -> Array:
    return a if a.ranked == b.ranked else Array(False, a.node)


_JOINERS = {
    Tensor: _join_tensor,
    Module: _join_module,
    Instance: _join_instance,
    Device: _join_device,
    Flag: _join_flag,
    Seq: _join_seq,
    Iterable: _join_iterable,
    Scalar: _join_scalar,
    Opaque: _join_opaque,
    Array: _join_array,
}


def with_place(value: Value, place: Place) -> Value:
    """The same value, living elsewhere (a module's parameters follow the module)."""
    if type(value) in (Tensor, Module) and value.place is not place:
        return replace(value, place=place)
    return value
