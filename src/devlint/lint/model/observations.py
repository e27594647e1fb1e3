"""What the interpreter saw, for the rules to decide on. Rules read only these.

Every observation names the node it is about and the context it was seen in (`Where`): which
function, whether the accelerator world and the CPU world reach it, the loops around it. The
same node can be observed in several contexts (a helper called from two places); the rules
decide per observation and the engine keeps one finding per node.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count
from typing import Any, Iterator, Optional

from devlint.lint.model.values import Device, Value

# When an observation was made, in the order the interpreter ran the code: a move in another
# file's code that the run reached after a copy came after it, whatever the files' lines say.
CLOCK = count()


@dataclass(frozen=True)
class Where:
    """The context of an observation."""

    function: Any = field(default=None, compare=False, repr=False)  # FuncInfo, or None at module level
    accel: bool = True  # reached in the accelerator world
    cpu: bool = True  # reached in the CPU world (no GPU on the machine)
    loops: tuple = ()  # LoopInfo of the enclosing loops of this function, outermost first
    rank_guarded: bool = False  # under a test about the rank or the world size
    in_test: bool = False  # inside a test function or test class
    expect_raise: bool = False  # under `pytest.raises`/`assertRaises`: failing is the point
    bound: frozenset = frozenset()  # names bound here on every path (what a fix may use)
    no_grad: bool = False
    self_test: bool = False  # in the `__main__` block of a module inside a package
    # the CUDA placement that raised on every CPU path to here (`State.past`), or None
    past: Any = field(default=None, compare=False, repr=False)
    # inside a `try` whose handler catches a failed CUDA call and goes on: no stop there
    caught: bool = field(default=False, compare=False, repr=False)


@dataclass(frozen=True)
class Side:
    """One operand of a meeting: its expression and what it holds."""

    node: Any
    value: Value


@dataclass(frozen=True)
class Meeting:
    """Tensors that must share a device meet: `host` lives on the CPU and `device` on the
    accelerator, on every path that reaches `node`. kind: model (a module call), loss, op
    (arithmetic, comparisons, torch functions, tensor methods), index (a CPU tensor indexed by a
    device tensor)."""

    kind: str
    node: Any
    host: Side
    device: Side
    where: Where
    callee: Optional[str] = None  # how the code names the model or loss


@dataclass(frozen=True)
class Transfer:
    """`.to(...)`, `.cuda()`, `.cpu()` on a value. `kept`: the result is used (bound, passed,
    returned); a bare statement on a tensor throws the moved copy away."""

    node: Any  # the call
    receiver: Any  # the receiver expression
    before: Value
    after: Value
    kept: bool
    where: Where
    statement: Any = None  # the statement line, when the transfer is all it does
    seq: int = field(default_factory=lambda: next(CLOCK), compare=False, repr=False)
    # the receiver is a parameter whose caller, in a loop of this file, passed this expression:
    # its `Frame.passed_in_loop` entry (argument, the caller's loops, the caller's spellings)
    caller: Any = field(default=None, compare=False, repr=False)

    @property
    def names_read(self) -> tuple:
        """The names the transfer's arguments read (DEV007: a loop that rebinds one changes
        where the model goes)."""
        from devlint.lint.syntax import walk

        return tuple(sub.value for arg in self.node.args for sub in walk(arg.value)
                     if type(sub).__name__ == "Name")


@dataclass(frozen=True)
class Conversion:
    """A tensor leaves torch: `.numpy()` (the only one that fails on a device tensor)."""

    node: Any
    receiver: Any
    value: Value
    where: Where
    held: bool = False  # the receiver is a list or tuple that holds such tensors


@dataclass(frozen=True)
class DeviceSpec:
    """A place that names a device: a literal (`'cuda'`, `'cuda:0'`), `.cuda()`, legacy
    `torch.cuda.FloatTensor`, `set_device(0)`, `device_ids=[0]`. kind names the position."""

    node: Any
    kind: str
    device: Device
    where: Where
    call: Any = None  # the `.cuda(...)` call
    in_conditional: bool = False  # an arm of `x if c else y`
    fixed_index: bool = False  # names one GPU by number
    devices: tuple = ()  # names of fallback devices bound here (what a fix may use)


@dataclass(frozen=True)
class Load:
    node: Any  # the `torch.load` call
    path: Value
    where: Where
    map_location: bool
    devices: tuple = ()
    tensors: bool = True  # False: what it reads holds no tensors (an LR scheduler's state)
    # a process group was started, or the rank read, on the way here: the load runs per rank
    # (a notebook's single-process `load_trained_model()` beside a spawned worker does not)
    ranked: bool = True
    seq: int = field(default_factory=lambda: next(CLOCK), compare=False, repr=False)


@dataclass(frozen=True)
class Save:
    node: Any
    path: Value
    value: Optional[Value] = None  # what was saved, when known
    # written only when the file is missing (`if not os.path.exists(ckpt): train_and_save()`):
    # a file an earlier run, on whatever device it had, may have written instead
    if_missing: bool = False
    seq: int = field(default_factory=lambda: next(CLOCK), compare=False, repr=False)


@dataclass(frozen=True)
class LossBuilt:
    """A loss module built with a class weight: `nn.CrossEntropyLoss(weight=w)`."""

    node: Any  # the constructor call
    weight_node: Any
    weight: Value
    keyword: str  # "weight", "pos_weight" or "" (positional)
    where: Where
    devices: tuple = ()


@dataclass(frozen=True)
class Wrap:
    """A module wrapped for several devices or processes: `DistributedDataParallel(model)`,
    `DataParallel(model)`, FSDP. `module` is the wrapped value as it was at the call."""

    node: Any  # the wrapper's call
    qualname: str
    module: Value
    where: Where
    device_ids: bool  # device_ids given


@dataclass(frozen=True)
class ModuleContainer:
    """`self.attr = [...]` (or `{...}`) holding modules, in a module class."""

    cls: Any
    attr: str
    node: Any  # the list or dict expression
    statement: Any


@dataclass(frozen=True)
class Event:
    """Something done to a module or a tensor that DEV015-DEV022 decide on. kind:
    attach (`model.fc = nn.Linear(...)`, `add_module`: `subject` the owner, `other` the new
    module), copy (`copy.deepcopy(model)`: `subject` the original, `other` the copy),
    host-call (a module on the CPU called with device tensors: `other` the (node, tensor)),
    params (`m.parameters()`: `subject` the module), state-load (`x.load_state_dict(...)` on
    something that is no module), cast (`t.type(torch.FloatTensor)`: `subject` the tensor,
    `other` the type's node), metric (a metric module built: `torchmetrics.Accuracy(...)`),
    optimizer (an optimizer built: `torch.optim.AdamW(...)`), prepare (a module handed to
    accelerate's or Fabric's `prepare`/`setup`, which place it on the device: `subject` the module)."""

    kind: str
    node: Any
    subject: Value
    where: Where
    other: Any = None
    statement: Any = None
    seq: int = field(default_factory=lambda: next(CLOCK), compare=False, repr=False)


@dataclass
class Observations:
    meetings: list = field(default_factory=list)
    transfers: list = field(default_factory=list)
    conversions: list = field(default_factory=list)
    devices: list = field(default_factory=list)
    loads: list = field(default_factory=list)
    saves: list = field(default_factory=list)
    losses: list = field(default_factory=list)
    containers: list = field(default_factory=list)
    wraps: list = field(default_factory=list)
    events: list = field(default_factory=list)

    def extend(self, other: "Observations") -> None:
        for name in self.__dataclass_fields__:
            getattr(self, name).extend(getattr(other, name))

    def all(self) -> Iterator[Any]:
        for name in self.__dataclass_fields__:
            yield from getattr(self, name)


def observed_nodes(observed: Any) -> Iterator[Any]:
    """The syntax nodes an observation names (what a finding about it may point at)."""
    for name in ("node", "receiver", "call", "weight_node", "statement"):
        node = getattr(observed, name, None)
        if node is not None:
            yield node
    for name in ("host", "device", "value", "before", "path", "weight", "module"):
        part = getattr(observed, name, None)
        if isinstance(part, Side):
            yield part.node
            part = part.value
        node = getattr(part, "node", None)
        if node is not None and not isinstance(node, (str, int)):
            yield node
