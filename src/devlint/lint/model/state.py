"""The interpreter's state at a program point, how paths join, and what it knows of the file's
functions, classes and loops."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Optional

import libcst as cst

from devlint.lint.model import torch_api as api
from devlint.lint.syntax import dotted, walk
from devlint.lint.model.values import (
    Device, Flag, Func, Instance, Maybe, Module, Opaque, Ref, Scalar, Seq, Value, join, unwrap,
)


class State:
    """Names and their values, and whether each world reaches this point. A point neither
    world reaches is dead: the rest of its block is not interpreted.

    `cpu` says the CPU world *may* reach the point; `sure` says it does on a path whose every
    condition devlint evaluated. A condition it cannot evaluate is a possible guard: past
    `if some_lib.has_gpu(): ... else: return`, the CPU world may be here, but not surely, and a
    finding about what a machine without a GPU does needs `sure`.

    `past` is the CUDA placement that raised in the CPU world on every path to here (the spec's
    node), or None: a machine without a GPU has stopped there, so what follows is that root
    cause's consequence, not a cause of its own (DEV001 counts it in that finding). The CPU
    world goes on past it all the same: the rest is still read for other mistakes."""

    __slots__ = ("env", "accel", "cpu", "sure", "past")

    def __init__(self, env: dict, accel: bool = True, cpu: bool = True, sure: bool = True,
                 past: Any = None) -> None:
        self.env, self.accel, self.cpu, self.sure, self.past = env, accel, cpu, sure, past

    @property
    def live(self) -> bool:
        return self.accel or self.cpu

    def copy(self, accel: Optional[bool] = None, cpu: Optional[bool] = None,
             sure: Optional[bool] = None) -> "State":
        return State(dict(self.env), self.accel if accel is None else accel,
                     self.cpu if cpu is None else cpu, self.sure if sure is None else sure,
                     self.past)

    def dead(self) -> "State":
        return State(self.env, False, False, False)

    def same(self, other: "State") -> bool:
        return self.accel == other.accel and self.cpu == other.cpu and self.sure == other.sure \
            and self.past is other.past and self.env == other.env

    def bound(self) -> frozenset:
        """The names bound on every path to here."""
        return frozenset(k for k, v in self.env.items() if type(v) is not Maybe)


def join_states(states: list) -> State:
    """Paths meet. The accelerator world's values come from the paths it takes; a device or a
    flag keeps, for the CPU world, what the paths the CPU world takes gave it (`device = 'cuda'`
    in the available branch, `'cpu'` in the other, is one fallback device)."""
    live = [s for s in states if s.live]
    if not live:
        return states[0].dead() if states else State({}, False, False)
    if len(live) == 1:
        return live[0]
    chosen = [s for s in live if s.accel] or live
    cpu_paths = [s for s in live if s.cpu]
    if len(chosen) == 2:
        env = _join_two(chosen[0].env, chosen[1].env)
    else:
        env = {}
        for name in dict.fromkeys(k for s in chosen for k in s.env):
            values = [s.env.get(name) for s in chosen]
            value = values[0]
            for other in values[1:]:
                if other is not value:
                    value = join(value, other)
            env[name] = value
    if len(cpu_paths) != len(chosen) or any(a is not b for a, b in zip(cpu_paths, chosen)):
        for name, value in env.items():
            kind = type(unwrap(value))
            if kind is Scalar:
                # `device = "cuda"` where a GPU is, `"cpu"` where none is: one device string
                # that differs by world, which only a Device can say
                value = device_string(value)
                kind = type(unwrap(value))
            if kind in (Device, Flag):
                env[name] = _with_cpu_world(value, [device_string(s.env.get(name)) for s in cpu_paths])
            elif kind is Ref and any(unwrap(s.env.get(name)) != unwrap(value) for s in cpu_paths):
                # `prefix = torch.cuda` where a GPU is, `torch` where none is: what it names
                # (`prefix.LongTensor`) differs by world, and one value cannot say both
                env[name] = Opaque(name)
            elif type(value) is Func and any(s.env.get(name) is not value for s in cpu_paths):
                # `cast = lambda x: x.cuda()` where a GPU is, another where none may be: a
                # call without a GPU runs one of them, not surely this one
                env[name] = replace(value, gpu_world=True)
            elif kind is Seq and unwrap(value).kind in ("list", "tuple") and \
                    type(device_string(unwrap(value).element)) is Device:
                # `devices = [f'cuda:{i}' for i in ...]` where a GPU is, `['cpu'] * n` where none
                # is: a list of devices keeps both worlds in its element
                cpu_lists = [unwrap(s.env.get(name)) for s in cpu_paths]
                if all(type(v) is Seq for v in cpu_lists):
                    element = _with_cpu_world(device_string(unwrap(value).element),
                                              [device_string(v.element) for v in cpu_lists])
                    env[name] = replace(unwrap(value), items=None, element=element)
            elif kind in (Instance, Module) and unwrap(value).attrs:
                # `self.device = "cuda:0"` after `assert torch.cuda.is_available()`, the CPU
                # in the other arm: an object's devices and flags keep both worlds too
                env[name] = _attributes_with_cpu_world(value, [s.env.get(name) for s in cpu_paths])
    return State(env, any(s.accel for s in live), any(s.cpu for s in live),
                 any(s.sure for s in cpu_paths), common_past(cpu_paths))


def common_past(states: list) -> Any:
    """The crash every one of the CPU world's paths has passed (`State.past`), or None. Where
    each path crashed at a literal of its own (MetaOptNet's `get_model`, whose every arm builds
    its network with `.cuda()`), no CPU path goes on: the first path's crash stands for them."""
    if not states:
        return None
    past = states[0].past
    return past if past is not None and all(s.past is not None for s in states[1:]) else None


def _join_two(a: dict, b: dict) -> dict:
    """Two paths' names: most values are the same objects on both (one branch changed a few)."""
    env = dict(a)
    for name, value in b.items():
        mine = env.get(name)
        if mine is not value:
            env[name] = join(mine, value)
    for name in a.keys() - b.keys():
        env[name] = join(a[name], None)
    return env


def device_of_text(text: str, node: Any) -> Optional[Device]:
    """The device a string names (`"cpu"`, `"cuda:1"`, `"mps"`), or None."""
    if text == "cpu":
        return Device("host", "host", node)
    if api.DEVICE_LITERAL.match(text):
        index = api.FIXED_CUDA_INDEX.match(text)
        return Device("accel", "accel", node, int(index.group(1)) if index else None)
    return None


def device_string(value: Optional[Value]) -> Optional[Value]:
    """A string naming a device, as the Device it names (kept a Scalar otherwise)."""
    base = unwrap(value) if value is not None else None
    if type(base) is not Scalar:
        return value
    if base.text is None:
        # `f"cuda:{device_index}"`: a CUDA device whatever its number
        if not (base.template or "").startswith("cuda:"):
            return value
        device: Optional[Device] = Device("accel", "accel", base.node)
    else:
        device = device_of_text(base.text, base.node)
    if device is None:
        return value
    return Maybe(device) if type(value) is Maybe else device


def _attributes_with_cpu_world(value: Value, cpu_values: list, depth: int = 3) -> Value:
    """`value`'s devices, flags and classes with their CPU-world part taken from the paths a
    machine without a GPU takes, in the objects it holds too (`model.params.device` of a model
    built on a config whose device each arm set): `depth` objects deep."""
    base = unwrap(value)
    others = [dict(unwrap(v).attrs) if v is not None and type(unwrap(v)) is type(base) else {}
              for v in cpu_values]
    attrs = []
    changed = False
    for attr, item in base.attrs:
        inner = device_string(item)
        if type(unwrap(inner)) in (Device, Flag):
            new = _with_cpu_world(inner, [device_string(o.get(attr)) for o in others])
            changed = changed or new is not item
            attrs.append((attr, new))
        elif depth > 1 and type(unwrap(item)) in (Instance, Module) and unwrap(item).attrs:
            new = _attributes_with_cpu_world(item, [o.get(attr) for o in others], depth - 1)
            changed = changed or new is not item
            attrs.append((attr, new))
        elif type(item) is Ref:
            # `self.FloatTensor = torch.cuda.FloatTensor` under `if args.cuda:`, the CPU type
            # in the other arm: the class a machine without a GPU makes its tensors with
            names = {unwrap(o.get(attr)).qualname if type(unwrap(o.get(attr))) is Ref else None
                     for o in others}
            cpu = names.pop() if len(names) == 1 else None
            if cpu is None or cpu != item.qualname:
                changed = True
                attrs.append((attr, replace(item, cpu=cpu) if cpu is not None else Opaque(attr)))
            else:
                attrs.append((attr, item))
        else:
            attrs.append((attr, item))
    if not changed:
        return value
    moved = replace(base, attrs=tuple(attrs))
    return Maybe(moved) if type(value) is Maybe else moved


def _with_cpu_world(value: Value, cpu_values: list) -> Value:
    """`value` with its CPU-world part taken from the paths a machine without a GPU takes."""
    base = unwrap(value)
    kinds = {getattr(unwrap(v), "cpu", None) if v is not None else None for v in cpu_values}
    cpu = kinds.pop() if len(kinds) == 1 else None
    moved = replace(base, cpu=cpu)
    return Maybe(moved) if type(value) is Maybe else moved


@dataclass(eq=False)
class LoopInfo:
    """A loop, read once: whether it trains (steps an optimizer, calls backward, zeroes grads,
    or walks a loader), what its body binds or moves back to the CPU, and what it runs (calls,
    or calls a method of: a sampling loop runs its model)."""

    node: Any = field(repr=False)
    trains: bool = False
    binds: frozenset = frozenset()
    offloads: frozenset = frozenset()
    runs: frozenset = frozenset()


@dataclass(eq=False)
class FuncInfo:
    node: Any = field(repr=False)  # FunctionDef or Lambda
    name: str
    cls: Any = field(default=None, repr=False)  # ClassInfo of the class whose body defines it
    params: tuple = ()  # (name, kind, default Value or None, annotation qualname, `?` for another written type, or None)
    locals: frozenset = frozenset()
    no_grad: bool = False
    needs_cuda: bool = False  # skipped without CUDA, or CUDA-specific by purpose
    straight_gpu_call: bool = False  # every run makes a call that needs a GPU (raises without one)
    rank_skip: bool = False  # skipped when several processes run
    is_test: bool = False
    generator: bool = False
    static: bool = False
    classmethod: bool = False
    prop: bool = False
    never_runs: bool = False  # `@unittest.skip`
    defined_cpu: bool = True  # the CPU world reaches its definition
    host_params: set = field(default_factory=set)  # parameters that must stay on the CPU
    index_params: Optional[frozenset] = None  # used only to index (`indices`), once computed
    picked: Optional[frozenset] = None  # names only ever picked out of data (`x = d[k]`), once computed
    computed: Optional[dict] = None  # locals computed from one parameter alone (`_computed_from`)
    items_assigned: Optional[frozenset] = None  # parameters it assigns moved values into, once computed
    owner: Any = field(default=None, repr=False)  # the interpreter of the file defining it

    @property
    def takes_device(self) -> bool:
        from devlint.lint.model.conventions import names_device

        return any(names_device(p[0]) or p[0] in ("gpu", "rank", "local_rank") for p in self.params)


@dataclass(eq=False)
class ClassInfo:
    node: Any = field(repr=False)
    name: str
    bases: tuple = field(default=(), repr=False)  # Values of the base expressions
    namespace: dict = field(default_factory=dict, repr=False)  # what the class body binds
    is_module: bool = False
    framework: bool = False  # Lightning: the trainer moves it and its batches
    callback: bool = False  # a Lightning `Callback`: its hooks get the batches the trainer moved
    is_test: bool = False
    needs_cuda: bool = False
    registers_by_hand: bool = False  # add_module / register_module / setattr
    moves_itself: bool = False  # overrides `_apply`, `to` or `cuda`
    wrapped: set = field(default_factory=set)  # attributes handed to ModuleList & co
    containers: dict = field(default_factory=dict, repr=False)  # attr -> ModuleContainer
    hook_written: set = field(default_factory=set)  # attributes a method registered as a hook sets
    state_calls: Optional[frozenset] = None  # register_buffer & co its code calls (once computed)
    owner: Any = field(default=None, repr=False)  # the interpreter of the file defining it

    def mro(self) -> list:
        order, pending = [], [self]
        while pending:
            info = pending.pop(0)
            if info in order:
                continue
            order.append(info)
            pending.extend(b.info for b in info.bases if type(b).__name__ == "Klass")
        return order

    def overrides_move(self) -> bool:
        """It, or a class it derives from, overrides `_apply`, `to` or `cuda`: a subclass of a
        classifier whose own `to()` sets `self.device` moves the way its base says."""
        return any(c.moves_itself for c in self.mro())

    def bases_known(self) -> bool:
        """Every base class up the hierarchy is one devlint reads (the project's) or torch's:
        no method or state of it is hidden in a framework's template or a library's class."""
        return all(type(b).__name__ == "Klass" or (type(b).__name__ == "Ref" and (
            b.qualname.startswith("torch.") or b.qualname in ("object", "builtins.object")))
            for info in self.mro() for b in info.bases)

    def lookup(self, name: str) -> Optional[Value]:
        for info in self.mro():
            if name in info.namespace:
                return info.namespace[name]
        return None


@dataclass(eq=False)
class LoopFrame:
    info: LoopInfo
    breaks: list = field(default_factory=list)
    continues: list = field(default_factory=list)


@dataclass(eq=False)
class Frame:
    """One function being interpreted (or the module, or a class body)."""

    function: Optional[FuncInfo]
    closure: Optional[dict] = None
    cls: Optional[ClassInfo] = None  # a class body being run
    returns: list = field(default_factory=list)  # (State, Value)
    yields: list = field(default_factory=list)
    loops: list = field(default_factory=list)
    # {parameter: (the caller's argument expression, the caller's enclosing loops, {parameter:
    # the caller's spelling of its argument})}, for a call of this file's code made inside a
    # loop of its caller (DEV007's step helpers)
    passed_in_loop: dict = field(default_factory=dict)
    # the blocks being run, outermost first: [their statements, the index of the one running]
    blocks: list = field(default_factory=list)
    # a CUDA placement that raises without a GPU ran in the CPU world (`torch.from_numpy(gt)
    # .cuda()` in `__init__`), here or in a callee of the same file
    crashes_on_cpu: bool = False
    # the first such placement of the statement being run (its spec's node): past it, the CPU
    # world's path is past that crash (`State.past`)
    crash_here: Any = None
    # a condition devlint could not evaluate (its `test_key`) -> (the arm, the crash `past` of
    # the CPU world on that arm, the words it reads): where its paths split, one arm crashed
    # and the other did not; the same test later, nothing it reads bound again since, takes
    # the same arm on each path (`Interpreter._if`)
    crashed_tests: dict = field(default_factory=dict)


def is_name(node: Any, value: str) -> bool:
    return type(node) is cst.Name and node.value == value


def flag_not(flag: Flag) -> Flag:
    return Flag(None if flag.accel is None else not flag.accel,
                None if flag.cpu is None else not flag.cpu, flag.availability)


def flag_and(a: Flag, b: Flag) -> Flag:
    return Flag(_and(a.accel, b.accel), _and(a.cpu, b.cpu), a.availability or b.availability)


def flag_or(a: Flag, b: Flag) -> Flag:
    return Flag(_or(a.accel, b.accel), _or(a.cpu, b.cpu), a.availability or b.availability)


def _and(a: Optional[bool], b: Optional[bool]) -> Optional[bool]:
    if a is False or b is False:
        return False
    if a is True and b is True:
        return True
    return None


def _or(a: Optional[bool], b: Optional[bool]) -> Optional[bool]:
    if a is True or b is True:
        return True
    if a is False and b is False:
        return False
    return None


_STATE_CALLS = frozenset({"register_buffer", "register_parameter", "Parameter", "add_module",
                          "register_module", "setattr", "ParameterList", "ParameterDict"})


def state_calls(cls: ClassInfo) -> frozenset:
    """The state-registering calls (`register_buffer`, `nn.Parameter`, `add_module`, ...) in a
    class's code, read once per class."""
    if cls.state_calls is None:
        cls.state_calls = frozenset(
            name for n in walk(cls.node) if type(n) is cst.Call
            for name in ((dotted(n.func) or "").rsplit(".", 1)[-1],) if name in _STATE_CALLS)
    return cls.state_calls
