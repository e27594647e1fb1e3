"""What the rules share, computed in one pass over a module.

The pass records bindings (devices, models moved, losses, loaders, datasets), the loops that
iterate something loader-like with the batch values flowing through their bodies, and the
literal CUDA device names with whether a guard covers them. Questions that need the whole file
(is this callee a model that lives on a device? is this loader already on the device?) are
answered after the pass by `Facts`, so a definition later in the file still counts. Rules only
query `Facts`; none of them walks the tree again.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator, Optional, Union

import libcst as cst

from devlint.lint.traverse import COMMON_SHAPES, Walker
from devlint.lint.syntax import (
    calls_in,
    DEVICE_PRESERVING_METHODS,
    HOST_METHODS,
    contains_move,
    dotted,
    factory_rank,
    has_device_argument,
    identifier_words,
    is_cuda_literal,
    is_host_factory,
    is_host_move,
    is_to_device_call,
    keyword_arg,
    last_part,
    method_call,
    moves_among,
    positional_args,
    string_value,
    target_names,
    tensor_factory,
    tuple_elements,
    walk,
)

LOADER_NAME = re.compile(r"loader|(^|_)dl$|(^|_)iter$|^batches$", re.IGNORECASE)
# Sequence lengths stay on the host: pack_padded_sequence wants them there (a tensor on the
# GPU raises), and a collate_fn often yields them as a Python list, which has no `.to()`.
LENGTHS_NAME = re.compile(r"(^|_)(lengths?|lens?)$", re.IGNORECASE)
MODEL_NAME = re.compile(
    r"model|net|encoder|decoder|classifier|generator|discriminator|backbone|^[GD]$|policy|critic",
    re.IGNORECASE,
)
LOSS_NAME = re.compile(r"^(criterion\w*|\w*loss_?fn|loss_func(tion)?|loss_fcn|lossfn)$", re.IGNORECASE)
FUNCTIONAL_LOSSES = frozenset(
    {
        "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
        "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "ctc_loss",
        "poisson_nll_loss", "gaussian_nll_loss", "cosine_embedding_loss", "hinge_embedding_loss",
        "margin_ranking_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss",
        "multi_margin_loss", "soft_margin_loss", "triplet_margin_loss",
        "triplet_margin_with_distance_loss",
    }
)
FUNCTIONAL_PREFIXES = ("F.", "functional.", "nn.functional.", "torch.nn.functional.")
PARALLEL_WRAPPERS = frozenset(
    {"DataParallel", "DistributedDataParallel", "DDP", "FullyShardedDataParallel", "FSDP"}
)
LOOP_WRAPPERS = frozenset({"tqdm", "enumerate", "zip", "iter", "progress_bar", "track"})
GUARD_WORDS = ("cuda", "gpu", "device", "mps", "cpu", "accelerat", "is_available")
EXITS = frozenset({"exit", "sys.exit", "quit", "os._exit", "pytest.skip", "self.skipTest"})
AVAILABILITY_CALLS = frozenset({"is_available", "device_count"})


# --- values flowing through a loop body -------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """A tensor (or batch object) as the loader yielded it: on the CPU until moved."""

    var: str
    origin: str  # the loop target it came from
    loop: "Loop"
    plain: bool = False  # unpacked or indexed out of a batch: a tensor, whose `.to` is no move
    # Where the name got its value: the `for` loop, or the assignment statement in its body.
    bound_at: Optional[cst.CSTNode] = field(default=None, compare=False)


@dataclass(frozen=True)
class Moved:
    """A value moved to a device (or made there) in this iteration."""


@dataclass(frozen=True)
class Output:
    """The result of calling `callee`: a device tensor when `callee` is a device model."""

    callee: str


@dataclass(frozen=True)
class Host:
    """A tensor of one dimension or more that a factory made on the CPU (no `device=`)."""

    call: cst.Call


@dataclass(frozen=True)
class Input:
    """A tensor argument of `forward`: it lives wherever the module was moved."""

    name: str


Value = Union[Batch, Moved, Output, Host, Input]
MOVED = Moved()
BATCH_MOVED = "<a batch was moved>"  # a state key no identifier can collide with


# --- bindings ---------------------------------------------------------------------------------


@dataclass(eq=False)
class Scope:
    kind: str  # "module", "class" or "function"
    name: str
    parent: Optional["Scope"]
    node: Optional[cst.CSTNode] = None
    params: list[str] = field(default_factory=list)
    assigned: set[str] = field(default_factory=set)
    # key -> what happened to it, in source order: ("move", node) for `.to()`/`.cuda()`,
    # ("keep", node) for a wrapper that keeps it where it is (`DataParallel(model)`),
    # ("rebind", node) for anything else.
    events: dict[str, list[tuple[int, str, cst.CSTNode]]] = field(default_factory=dict)
    data_moves: set[str] = field(default_factory=set)  # names bound to data on a device
    parallel: set[str] = field(default_factory=set)  # DataParallel & co scatter inputs
    losses: set[str] = field(default_factory=set)
    loaders: dict[str, cst.BaseExpression] = field(default_factory=dict)  # key -> RHS
    prepared: set[str] = field(default_factory=set)  # accelerator.prepare outputs
    datasets: dict[str, cst.BaseExpression] = field(default_factory=dict)
    availability_flags: set[str] = field(default_factory=set)
    uses_accelerator: bool = False  # a parameter named accelerator/fabric: loaders prepared
    unpacked_from: dict[str, cst.Call] = field(default_factory=dict)
    tensors: dict[str, "TensorOrigin"] = field(default_factory=dict)  # names bound to a factory
    move_frames: list[dict[str, cst.CSTNode]] = field(default_factory=lambda: [{}])

    @property
    def class_scope(self) -> Optional["Scope"]:
        scope: Optional[Scope] = self
        while scope is not None and scope.kind == "function":
            scope = scope.parent
            if scope is not None and scope.kind == "class":
                return scope
        return None

    def binds(self, name: str) -> bool:
        return name in self.params or name in self.assigned

    def moved_at(self, key: str) -> Optional[cst.CSTNode]:
        for _, kind, node in self.events.get(key, ()):
            if kind == "move":
                return node
        return None

    def early_moves(self) -> dict[str, cst.CSTNode]:
        merged: dict[str, cst.CSTNode] = {}
        for frame in self.move_frames:
            merged.update(frame)
        return merged

    def forget_move(self, name: str) -> None:
        for frame in self.move_frames:
            frame.pop(name, None)


@dataclass(eq=False)
class Loop:
    """A `for` loop over something that may be a data loader."""

    node: cst.For
    scope: Scope
    sources: list[cst.BaseExpression]  # the iterables, wrappers (enumerate, tqdm) removed
    early_moves: dict[str, cst.CSTNode]  # loop targets already moved before the loop


@dataclass(frozen=True)
class CallEvent:
    """A call inside a loop body with the batch-related values of its arguments."""

    call: cst.Call
    callee: str
    operands: tuple[tuple[cst.CSTNode, Value], ...]
    scope: Scope
    seq: int
    after_batch_move: bool  # this iteration already moved another batch tensor to a device


@dataclass(frozen=True)
class CudaLiteral:
    """A place that names a CUDA device literally (`'cuda'`, `.cuda()`)."""

    node: cst.CSTNode
    kind: str  # "torch.device", ".to", ".cuda", "device=", "map_location=", "default", "assign"
    guarded: bool
    scope: Scope = field(compare=False)
    call: Optional[cst.Call] = field(default=None, compare=False)  # the `.cuda(...)` call
    in_conditional: bool = False  # an arm of `x if c else y`: no simple rewrite


@dataclass(eq=False)
class FunctionInfo:
    name: str
    scope: Scope
    moves_inside: bool = False  # set by the pass as it meets moves inside the body
    prepares: bool = False


@dataclass(frozen=True)
class CallSite:
    callee: str
    call: cst.Call
    scope: Scope
    seq: int


@dataclass(frozen=True)
class ModelOnDevice:
    key: str
    moved_at: Optional[cst.CSTNode]  # None when inferred (see `reason`)
    scatters_inputs: bool  # DataParallel & co move CPU inputs themselves
    reason: str = ""  # why a model that is never moved here is taken to be on the device


@dataclass(frozen=True)
class UnmovedUse:
    """A CPU batch value reaching a device model (`kind="model"`) or a loss (`kind="loss"`)."""

    kind: str
    call: cst.Call
    callee: str
    arg: cst.CSTNode
    batch: Batch
    model: ModelOnDevice
    early_move: Optional[cst.CSTNode]
    dict_like: bool = False  # `model(**batch)`, `batch["input_ids"]`: moved key by key


# --- records of DEV005-DEV013 -----------------------------------------------------------------


@dataclass(frozen=True)
class DiscardedMove:
    """`t.to(device)`, `t.cuda()` or `t.cpu()` as a bare statement on a known plain tensor."""

    call: cst.Call
    receiver: cst.BaseExpression
    name: Optional[str]  # the receiver when it is a name or attribute (what the fix can rebind)
    why: str  # what makes the receiver a tensor, for the message


@dataclass(frozen=True)
class HostMeeting:
    """A CPU factory tensor meeting another value in an operation or a call."""

    host: Host
    at: cst.CSTNode  # the operation or the call where they meet
    other: Optional[Value]  # the value it meets; None when it meets the callee itself
    callee: Optional[str]  # the callee when the host tensor is handed to a call
    scope: Scope
    seq: int
    in_default_device: bool  # under `with torch.device(...)`: the factory obeys it


@dataclass(eq=False)
class LoopFrame:
    """A `for` or `while` loop of one function, with what its body binds and does."""

    node: Union[cst.For, cst.While]
    trains: bool = False  # the body steps an optimizer, calls backward or walks a loader
    binds: set[str] = field(default_factory=set)
    offloads: set[str] = field(default_factory=set)  # keys moved back to the CPU in the body


@dataclass(frozen=True)
class ModelMoveInLoop:
    key: str
    call: cst.Call
    statement: Optional[cst.SimpleStatementLine]  # the line, when it holds only the move
    loops: tuple[LoopFrame, ...]  # the loops of its function around it, outermost first
    argument_names: tuple[str, ...]  # names the device expression reads
    scope: Scope


@dataclass(frozen=True)
class TorchLoad:
    call: cst.Call
    scope: Scope
    guarded: bool  # under a test about the device: the author chose where it runs
    source: str  # the code of the first argument


@dataclass(frozen=True)
class NumpyCall:
    """`<value>.numpy()` where the value comes from a device model or a move."""

    call: cst.Call
    value: Value
    scope: Scope
    seq: int
    detached: bool  # `.detach()` or `.data` already in the chain
    no_grad: bool  # under `torch.no_grad()`/`inference_mode()`: nothing requires grad


@dataclass(frozen=True)
class LossBuild:
    """`criterion = nn.XLoss(weight=w)` where `w` is a CPU tensor at that point."""

    key: str
    home: Scope
    scope: Scope
    call: cst.Call
    weight: cst.BaseExpression
    keyword: str  # "weight", "pos_weight" or "" (the first positional argument)


@dataclass(frozen=True)
class GpuIndex:
    """A fixed GPU index: `'cuda:0'`, `.cuda(0)`, `set_device(0)`, `device_ids=[0]`."""

    node: cst.CSTNode  # the string or integer literal
    kind: str  # "string" or "integer"
    scope: Scope
    rank_guarded: bool  # under a test about rank/world size, or in a test: chosen on purpose


@dataclass(frozen=True)
class Container:
    """`self.attr = [...]`/`{...}` (or filled later by `.append`/`[k] = `) in a class."""

    attr: str
    statement: Optional[cst.SimpleStatementLine]  # the line, when it holds only this
    value: cst.BaseExpression
    callees: tuple[str, ...]  # what builds its elements (`nn.Linear`, `Block`)


@dataclass(frozen=True)
class TensorAttribute:
    """`self.attr = torch.<factory>(...)` in `__init__`."""

    attr: str
    statement: Optional[cst.SimpleStatementLine]  # the line, when it holds only this
    value: cst.BaseExpression


@dataclass(eq=False)
class ClassInfo:
    name: str
    node: cst.ClassDef
    scope: Scope
    bases: tuple[str, ...]
    methods: set[str] = field(default_factory=set)
    containers: dict[str, Container] = field(default_factory=dict)
    added: dict[str, list[str]] = field(default_factory=dict)  # attr -> callees appended later
    wrapped: set[str] = field(default_factory=set)  # handed to nn.Sequential/ModuleList
    registers_by_hand: bool = False  # add_module / register_module / setattr
    tensor_attributes: dict[str, TensorAttribute] = field(default_factory=dict)
    assigned_elsewhere: set[str] = field(default_factory=set)  # set outside `__init__`
    forward_reads: dict[str, cst.Attribute] = field(default_factory=dict)
    moved_in_forward: set[str] = field(default_factory=set)
    called: set[str] = field(default_factory=set)  # names called in the body (classes it builds)
    moves_itself: bool = False  # overrides `_apply`/`to`/`cuda`


# --- the pass ---------------------------------------------------------------------------------


class _FactsVisitor(cst.CSTVisitor):
    def __init__(self) -> None:
        self.module_scope = Scope("module", "<module>", None)
        self.scope = self.module_scope
        # Every call in visit order, and the slice of it each call's subtree covers once left:
        # the calls of a bound value without walking the value again.
        self.calls: list[cst.Call] = []
        self.call_spans: dict[int, tuple[int, int]] = {}
        self.states: list[dict[str, Value]] = []
        self.loops: list[Loop] = []
        self.events: list[CallEvent] = []
        self.cuda_literals: list[CudaLiteral] = []
        self.functions: dict[str, FunctionInfo] = {}
        self.moving_classes: set[str] = set()
        self.call_sites: list[CallSite] = []
        self.functional_imports: set[str] = set()
        self.guard_depth = 0
        self.ifexps: list[bool] = []
        self.block_guards: list[bool] = [False]
        self.elif_nodes: set[int] = set()
        self.guarding_ifs: list[cst.If] = []
        self.param_defaults = 0
        self.seq = 0
        self.statement: Optional[cst.SimpleStatementLine] = None
        self.module_body_ids: set[int] = set()
        self.torch_imported = False
        self.last_import: Optional[cst.CSTNode] = None  # where a `device = ...` line can go
        self.module_devices: dict[str, cst.CSTNode] = {}  # module-level device variables
        self.prepares = False  # accelerator.prepare / fabric.setup_dataloaders somewhere
        self.uses_nccl = False  # NCCL process groups exist only on CUDA: the file needs a GPU
        # DEV005-DEV013
        self.scopes: list[Scope] = [self.module_scope]
        self.discarded_moves: list[DiscardedMove] = []
        self.host_meetings: list[HostMeeting] = []
        self.loop_frames: list[list[LoopFrame]] = [[]]  # per function, innermost last
        self.model_moves_in_loops: list[ModelMoveInLoop] = []
        self.torch_loads: list[TorchLoad] = []
        self.saved_paths: set[str] = set()  # `torch.save(obj, <path>)`: the path's code
        self.default_device = False  # `torch.set_default_device(...)`: factories obey it
        self.default_device_depth = 0  # inside `with torch.device(...)`
        self.no_grad_depth = 0
        self.numpy_calls: list[NumpyCall] = []
        self.loss_builds: list[LossBuild] = []
        self.gpu_indices: list[GpuIndex] = []
        self.distributed = False  # init_process_group or LOCAL_RANK
        self.per_process_visibility = False  # CUDA_VISIBLE_DEVICES: index 0 is this rank's GPU
        self.rank_guards: list[bool] = []
        self.classes: dict[str, ClassInfo] = {}
        self.class_stack: list[ClassInfo] = []
        self.slice_depth = 0
        self.device_context_calls: set[int] = set()  # factories under `with torch.device(...)`
        self.moved_constructions: set[str] = set()  # `Net(...).to(device)`: Net is moved
        self.expect_raise_depth = 0  # under `with pytest.raises(...)`: failing is the point
        self.foreign_names: set[str] = set()  # names imported from flax, jax, tensorflow...
        self.requiring_depth = 0  # inside `assert ...`
        self.returned_as_is: Optional[cst.BaseExpression] = None
        self.fallback_choices = 0  # availability tests that choose a device, not require one

    # scopes

    def _push(self, scope: Scope) -> None:
        self.scope = scope

    def _pop(self) -> None:
        assert self.scope.parent is not None
        self.scope = self.scope.parent

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scope.assigned.add(node.name.value)
        params = [p.name.value for p in (*node.params.posonly_params, *node.params.params)]
        params += [p.name.value for p in node.params.kwonly_params]
        for star in (node.params.star_arg, node.params.star_kwarg):
            if type(star) is cst.Param:
                params.append(star.name.value)
        scope = Scope("function", node.name.value, self.scope, node, params=params)
        scope.uses_accelerator = any(p in ("accelerator", "fabric") for p in params)
        guarded = any(
            self._is_guard_test(d.decorator) or _is_unconditional_skip(d.decorator)
            for d in node.decorators
        )
        self.guarding_ifs.append(node if guarded else None)
        self.guard_depth += guarded
        # `@pytest.mark.skipif("WORLD_SIZE" in os.environ, ...)`: the body runs single-process.
        self.rank_guards.append(any(_is_rank_skip(d.decorator) for d in node.decorators))
        if self.scope.kind == "module":
            self.functions[node.name.value] = FunctionInfo(node.name.value, scope)
        info = self._method_class()
        if info is not None:
            info.methods.add(node.name.value)
            if node.name.value in ("_apply", "to", "cuda"):
                info.moves_itself = True
        self._push(scope)
        self.scopes.append(scope)
        # A function body starts with no batch in flight; `forward` starts with its inputs.
        self.states.append(_forward_inputs(node) if info is not None else {})
        self.block_guards.append(False)
        self.loop_frames.append([])
        no_grad = any(_is_no_grad(d.decorator) for d in node.decorators)
        self.no_grad_depth += no_grad

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.guard_depth -= self.guarding_ifs.pop() is not None
        self.rank_guards.pop()
        self.no_grad_depth -= any(_is_no_grad(d.decorator) for d in original_node.decorators)
        self.states.pop()
        self.block_guards.pop()
        self.loop_frames.pop()
        self._pop()

    def _in_test(self) -> bool:
        """Inside a `test_*` function: it reads back files it wrote itself, in this process."""
        scope: Optional[Scope] = self.scope
        while scope is not None:
            name = scope.name.lstrip("_").lower()
            if name.startswith("test") or name.endswith(("test", "tests", "testcase")):
                return True
            scope = scope.parent
        return False

    def _method_class(self) -> Optional[ClassInfo]:
        """The class whose body this def is directly in (a method), else None."""
        if self.scope.kind == "class" and self.class_stack and self.class_stack[-1].scope is self.scope:
            return self.class_stack[-1]
        return None

    def _current_class(self) -> Optional[ClassInfo]:
        """The class of the method being walked (`self` is its instance)."""
        cls = self.scope.class_scope
        if cls is not None and self.class_stack and self.class_stack[-1].scope is cls:
            return self.class_stack[-1]
        return None

    def _method_name(self) -> str:
        scope: Optional[Scope] = self.scope
        while scope is not None and scope.kind == "function":
            if scope.parent is not None and scope.parent.kind == "class":
                return scope.name
            scope = scope.parent
        return ""

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.assigned.add(node.name.value)
        scope = Scope("class", node.name.value, self.scope, node)
        bases = tuple(d for d in (dotted(b.value) for b in node.bases) if d is not None)
        info = ClassInfo(node.name.value, node, scope, bases)
        self.classes.setdefault(node.name.value, info)
        self.class_stack.append(info)
        self._push(scope)
        self.scopes.append(scope)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.class_stack.pop()
        self._pop()

    def visit_Import(self, node: cst.Import) -> None:
        self._note_import()
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            if type(bound) is cst.Name:
                self.scope.assigned.add(bound.value)
                self.torch_imported |= bound.value == "torch" and alias.asname is None
                if (dotted(alias.name) or "").split(".")[0] in FOREIGN_FRAMEWORKS:
                    self.foreign_names.add(bound.value)

    def _note_import(self) -> None:
        if self.scope is self.module_scope and not self.guarding_ifs and self.statement is not None:
            if id(self.statement) in self.module_body_ids:
                self.last_import = self.statement

    def visit_Module(self, node: cst.Module) -> None:
        self.module_body_ids = {id(statement) for statement in node.body}

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._note_import()
        module = dotted(node.module) if node.module is not None else None
        if type(node.names) is cst.ImportStar:
            return
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            if type(bound) is cst.Name:
                self.scope.assigned.add(bound.value)
                if (module or "").split(".")[0] in FOREIGN_FRAMEWORKS:
                    self.foreign_names.add(bound.value)  # `from flax import linen as nn`
                if module == "torch.nn.functional" and alias.name.value in FUNCTIONAL_LOSSES:
                    self.functional_imports.add(bound.value)

    # guards (DEV001)

    def _is_guard_test(self, test: cst.BaseExpression) -> bool:
        """Code under this test runs only on the device the user chose or CUDA is known."""
        return self._is_availability_test(test) or any(
            g in word for word in identifier_words(test) for g in GUARD_WORDS
        )

    def _is_availability_test(self, test: cst.BaseExpression) -> bool:
        flags = self._availability_flags()
        for sub in walk(test):
            if type(sub) is cst.Call and last_part(dotted(sub.func)) in AVAILABILITY_CALLS:
                return True
            key = dotted(sub) if type(sub) in (cst.Name, cst.Attribute) else None
            if key is not None and key in flags:
                return True
        return False

    def _availability_flags(self) -> set[str]:
        flags: set[str] = set()
        scope: Optional[Scope] = self.scope
        while scope is not None:
            flags |= scope.availability_flags
            scope = scope.parent
        return flags

    def _guarded(self) -> bool:
        return (
            self.guard_depth > 0 or any(self.ifexps) or any(self.block_guards)
            or self.param_defaults > 0
        )

    def visit_Param(self, node: cst.Param) -> None:
        # `def f(device=torch.device('cuda'))`: a default the caller overrides, not a choice.
        self.param_defaults += 1

    def leave_Param(self, original_node: cst.Param) -> None:
        self.param_defaults -= 1

    def visit_If(self, node: cst.If) -> None:
        if id(node) in self.elif_nodes:
            return
        chain, tests = node, []
        while type(chain) is cst.If:
            tests.append(chain.test)
            if type(chain.orelse) is cst.If:
                self.elif_nodes.add(id(chain.orelse))
            chain = chain.orelse
        if any(self._is_guard_test(t) for t in tests):
            self.guard_depth += 1
            self.guarding_ifs.append(node)
        self.rank_guards.append(any(_is_rank_test(t) for t in tests))

    def leave_If(self, original_node: cst.If) -> None:
        if id(original_node) not in self.elif_nodes:
            self.rank_guards.pop()
        if self.guarding_ifs and self.guarding_ifs[-1] is original_node:
            self.guarding_ifs.pop()
            self.guard_depth -= 1
            test = original_node.test
            if original_node.orelse is None and _exits(original_node.body) and self._is_availability_test(test):
                # `if not torch.cuda.is_available(): sys.exit(...)`: the rest of the block
                # only runs with CUDA.
                self.block_guards[-1] = True
                self.fallback_choices -= _availability_calls(test)  # a requirement, no fallback

    def visit_Assert(self, node: cst.Assert) -> None:
        if self._is_availability_test(node.test):
            self.block_guards[-1] = True
        self.requiring_depth += 1  # `assert torch.cuda.is_available()` requires CUDA

    def leave_Assert(self, original_node: cst.Assert) -> None:
        self.requiring_depth -= 1

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.block_guards.append(False)

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        self.block_guards.pop()

    def visit_IfExp(self, node: cst.IfExp) -> None:
        # `'cuda:1' if a else 'cuda:0'` has no CPU arm: it is no fallback.
        self.ifexps.append(not (is_cuda_literal(node.body) and is_cuda_literal(node.orelse)))
        self.rank_guards.append(_is_rank_test(node.test))

    def leave_IfExp(self, original_node: cst.IfExp) -> None:
        self.ifexps.pop()
        self.rank_guards.pop()

    def visit_With(self, node: cst.With) -> None:
        self.default_device_depth += any(_is_device_context(i.item) for i in node.items)
        self.no_grad_depth += any(_is_no_grad(i.item) for i in node.items)
        self.expect_raise_depth += any(_expects_raise(i.item) for i in node.items)

    def leave_With(self, original_node: cst.With) -> None:
        self.default_device_depth -= any(_is_device_context(i.item) for i in original_node.items)
        self.no_grad_depth -= any(_is_no_grad(i.item) for i in original_node.items)
        self.expect_raise_depth -= any(_expects_raise(i.item) for i in original_node.items)

    def visit_SubscriptElement(self, node: cst.SubscriptElement) -> None:
        self.slice_depth += 1

    def leave_SubscriptElement(self, original_node: cst.SubscriptElement) -> None:
        self.slice_depth -= 1

    def _enclosing_functions(self) -> Iterator[FunctionInfo]:
        scope: Optional[Scope] = self.scope
        while scope is not None:
            info = self.functions.get(scope.name) if scope.kind == "function" else None
            if info is not None and info.scope is scope:
                yield info
            scope = scope.parent

    def _cuda_literal(
        self, node: cst.CSTNode, kind: str, fallback: bool = False,
        call: Optional[cst.Call] = None, in_conditional: bool = False,
    ) -> None:
        self.cuda_literals.append(
            CudaLiteral(node, kind, fallback or self._guarded(), self.scope, call, in_conditional)
        )
        value = string_value(node)
        if value is not None and FIXED_CUDA_INDEX.match(value):
            self._gpu_index(node, "string")

    def _device_position(self, expr: cst.BaseExpression, kind: str) -> None:
        """Record the CUDA literals an expression in a device position may evaluate to."""
        literals = _cuda_arms(expr)
        if literals is None:
            return
        fallback = type(expr) is cst.IfExp and not all(lit for _, lit in literals)
        self.fallback_choices += fallback  # `'cuda' if args.cuda else 'cpu'` also runs on a CPU
        # `'cuda:0' if world_size == 1 else ...`: this walks the arms before visiting the IfExp.
        self.rank_guards.append(type(expr) is cst.IfExp and _is_rank_test(expr.test))
        for node, is_cuda in literals:
            if is_cuda:
                self._cuda_literal(node, kind, fallback, in_conditional=node is not expr)
        self.rank_guards.pop()

    # loops

    def visit_For(self, node: cst.For) -> None:
        sources, skip_first = _loop_sources(node.iter)
        self._enter_loop(node, trains=any(_names_a_loader(src) for src in sources))
        self._bind_targets(node.target)
        for name in target_names(node.target):
            if name is not None:
                self._bound_in_loops(name)
        self.scope.move_frames.append({})
        if not sources:
            # `for key in batch.keys(): batch[key] = batch[key].to(device)` moves the batch
            # for the rest of the iteration: share the state rather than copy it.
            self.states.append(self.states[-1] if self.states else {})
            return
        names = target_names(node.target)
        if skip_first and type(node.target) is cst.Tuple:
            names = _tail_names(node.target)
        early = self.scope.early_moves()
        loop = Loop(node, self.scope, sources, {n: early[n] for n in names if n in early})
        self.loops.append(loop)
        state = dict(self.states[-1]) if self.states else {}
        plain = len(names) > 1
        for name in names:
            if name is not None:
                state[name] = Batch(name, name, loop, plain, node)
        self.states.append(state)

    def leave_For(self, original_node: cst.For) -> None:
        self.states.pop()
        self.scope.move_frames.pop()
        self._leave_loop()

    def visit_While(self, node: cst.While) -> None:
        self._enter_loop(node, trains=False)
        self.scope.move_frames.append({})

    def leave_While(self, original_node: cst.While) -> None:
        self.scope.move_frames.pop()
        self._leave_loop()

    def _enter_loop(self, node: Union[cst.For, cst.While], trains: bool) -> None:
        self.loop_frames[-1].append(LoopFrame(node, trains))

    def _leave_loop(self) -> None:
        frames = self.loop_frames[-1]
        frame = frames.pop()
        if frames:  # a loop around a training loop trains too
            frames[-1].trains |= frame.trains
            frames[-1].binds |= frame.binds
            frames[-1].offloads |= frame.offloads

    # bindings

    def _bind_targets(self, target: cst.BaseExpression) -> None:
        for name in target_names(target):
            if name is not None:
                self.scope.assigned.add(name)

    def _bound_in_loops(self, key: str) -> None:
        if self.loop_frames[-1]:
            self.loop_frames[-1][-1].binds.add(key)

    def _home(self, key: str) -> Scope:
        """Where a binding of `key` lives: `self.x` belongs to the class of the method."""
        if key.startswith("self."):
            cls = self.scope.class_scope
            if cls is not None:
                return cls
        return self.scope

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind_targets(target.target)
        if len(node.targets) == 1:
            target = node.targets[0].target
            if (
                type(target) is cst.Name
                and self.scope.kind != "class"
                and _names_a_device(target.value)
            ):
                self._device_position(node.value, "assign")

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.statement = node

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self.statement = None  # `for x in l: x = x.to(d)` has no line of its own to edit

    def leave_Assign(self, original_node: cst.Assign) -> None:
        for target in original_node.targets:
            self._record_binding(target.target, original_node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind_targets(node.target)

    def leave_AnnAssign(self, original_node: cst.AnnAssign) -> None:
        if original_node.value is not None:
            self._record_binding(original_node.target, original_node.value)

    def _record_binding(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        elements = tuple_elements(value)
        if type(target) in (cst.Subscript, cst.Attribute):
            self._store_into(target, value)
        target_elems = tuple_elements(target) if type(target) in (cst.Tuple, cst.List) else None
        if target_elems is not None and elements is not None and len(elements) == len(target_elems):
            for sub_target, sub_value in zip(target_elems, elements):
                self._record_binding(sub_target, sub_value)
            return
        if target_elems is not None:
            keys = [dotted(t) for t in target_elems]
            if _is_prepare_call(value):
                for key in keys:
                    if key is not None:
                        self._home(key).prepared.add(key)
            for key in keys:
                if key is not None:
                    self._bind_key(key, value, unpacked=True)
                    if type(value) is cst.Call:
                        self._home(key).unpacked_from[key] = value
            return
        key = dotted(target)
        if key is not None:
            self._bind_key(key, value, unpacked=False)

    def _bind_key(self, key: str, value: cst.BaseExpression, unpacked: bool) -> None:
        home = self._home(key)
        self.seq += 1
        kind = _binding_kind(key, value)
        home.events.setdefault(key, []).append((self.seq, kind, value))
        receiver = method_call(value)
        if kind == "move" and not unpacked and receiver is not None and dotted(receiver[0]) == key:
            self._model_move(key, value)  # `model = model.to(device)`: the same model
        else:
            self._bound_in_loops(key)
        if "." not in key:
            self._track_tensor_name(key, value, unpacked)
        if not unpacked:
            self._note_attribute(key, value)
            self._note_loss_build(home, key, value)
        calls = self.calls_within(value)
        if moves_among(calls):
            home.data_moves.add(key)
            if "." not in key:
                self.scope.move_frames[-1][key] = self.statement or value
        elif "." not in key:
            self.scope.forget_move(key)
        if _wraps_parallel(calls):
            home.parallel.add(key)
        if not unpacked:
            self._classify_binding(home, key, value, calls)
        if self.states and "." not in key:
            self._update_state(key, value, unpacked, calls)

    def _classify_binding(self, home: Scope, key: str, value: cst.BaseExpression,
                          calls: tuple[cst.Call, ...]) -> None:
        if home is self.module_scope and _is_device_value(value):
            self.module_devices.setdefault(key, value)
        if _names_a_device(last_part(key)) and _is_cpu_device(value):
            self.fallback_choices += 1  # `else: device = torch.device("cpu")`: runs on a CPU too
        if _builds_loss(value, calls, self.functional_imports):
            home.losses.add(key)
        if type(value) is cst.Call:
            callee = last_part(dotted(value.func))
            if "loader" in callee.lower() or (callee in LOOP_WRAPPERS and value.args):
                home.loaders[key] = value
            elif callee:
                home.datasets[key] = value
            if _is_prepare_call(value):
                home.prepared.add(key)
        if _mentions_availability(calls):
            home.availability_flags.add(key)

    def _store_into(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """`batch[k] = batch[k].to(device)` moves the batch's entries in place."""
        if type(target) is cst.Subscript and type(value) is cst.Call:
            self._container_add(dotted(target.value), [dotted(value.func) or ""])  # `self.heads[k] = Head()`
        root = target
        while type(root) in (cst.Subscript, cst.Attribute):
            root = root.value
        if self.states and type(root) is cst.Name and moves_among(self.calls_within(value)):
            if isinstance(self.states[-1].get(root.value), Batch):
                self.states[-1][root.value] = self.states[-1][BATCH_MOVED] = MOVED

    def _update_state(self, name: str, value: cst.BaseExpression, unpacked: bool,
                      calls: tuple[cst.Call, ...]) -> None:
        state = self.states[-1]
        new = value_of(value, state)
        if new is None and moves_among(calls) and not is_host_move(value):
            new = MOVED
        if isinstance(new, Batch):
            plain = new.plain or unpacked or type(value) is cst.Subscript
            new = Batch(name, new.origin, new.loop, plain, self.statement)
        if isinstance(state.get(name), Batch) and new is MOVED:
            state[BATCH_MOVED] = MOVED
        if new is None:
            state.pop(name, None)
        else:
            state[name] = new

    def visit_Expr(self, node: cst.Expr) -> None:
        # `model.to(device)` moves a module in place; `batch.to(device)` moves an HF
        # BatchEncoding or a PyG Data in place.
        call = node.value
        mc = method_call(call)
        if mc is None or not (is_to_device_call(call) or is_host_move(call)):
            return
        assert type(call) is cst.Call
        why = self._plain_tensor(mc[0])
        if why is not None:
            self.discarded_moves.append(DiscardedMove(call, mc[0], dotted(mc[0]), why))
        key = dotted(mc[0])
        if key is None:
            return
        if why is None:
            self._model_move(key, call)
        if not is_to_device_call(call):
            return
        current = self.states[-1].get(key) if self.states else None
        if isinstance(current, Batch):
            if not current.plain or OBJECT_BATCH_NAME.search(key):
                self.states[-1][key] = self.states[-1][BATCH_MOVED] = MOVED
            return  # a tensor's `.to` returns a copy: the bare statement moves nothing
        self.seq += 1
        kind = "rebind" if is_host_move(call) else "move"  # `model.cpu()` brings it back
        self._home(key).events.setdefault(key, []).append((self.seq, kind, call))

    # plain tensors, models moved in loops, module attributes, weighted losses (DEV005-DEV012)

    def _plain_tensor(self, expr: cst.BaseExpression) -> Optional[str]:
        """Why `expr` is known to be a plain tensor (whose `.to` returns a copy), else None.

        Only what the loop unpacked or indexed out of a batch, and names bound to a tensor
        factory: a whole batch may be a BatchEncoding or a PyG Data, whose `.to` works in
        place, and any other name may be a module."""
        if type(expr) is cst.Name:
            value = self.states[-1].get(expr.value) if self.states else None
            if (
                isinstance(value, Batch) and value.plain and _walks_a_loader(value.loop)
                and not OBJECT_BATCH_NAME.search(expr.value)
            ):
                return "unpacked from the loader's batch"
            if isinstance(value, Host) or (value is None and expr.value in self.scope.tensors):
                origin = self.scope.tensors.get(expr.value)
                factory = origin.factory if origin else value.call if isinstance(value, Host) else None
                if factory is None:
                    return None
                made_by = dotted(factory.func)
                return "a batch taken from the loader" if made_by == "next" else f"made by `{made_by}(...)`"
            return None
        if type(expr) is cst.Subscript and type(expr.value) is cst.Name and self.states:
            # `batch[0]`, `batch["input_ids"]`: an element, even of a BatchEncoding, is a tensor.
            value = self.states[-1].get(expr.value.value)
            if isinstance(value, Batch) and _walks_a_loader(value.loop):
                return "an element of the loader's batch"
        if type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self":
            info = self._current_class()
            if info is not None and expr.attr.value in info.tensor_attributes:
                return "a tensor attribute made by a factory in `__init__`"
        mc = method_call(expr)
        if mc is not None and mc[1] in DEVICE_PRESERVING_METHODS:
            return self._plain_tensor(mc[0])  # `x.float()` of a plain tensor is one too
        return None

    def _track_tensor_name(self, name: str, value: Optional[cst.BaseExpression], unpacked: bool = False) -> None:
        origin = tensor_origin(value) if value is not None else None
        if origin is None and unpacked and value is not None and _next_batch_of_a_loader(value):
            assert type(value) is cst.Call
            origin = TensorOrigin(value, on_host=True, rank="tensor")  # `x, y = next(iter(loader))`
        if origin is None:
            self.scope.tensors.pop(name, None)
        else:
            self.scope.tensors[name] = origin

    def _lookup_tensor(self, name: str) -> Optional["TensorOrigin"]:
        scope: Optional[Scope] = self.scope
        while scope is not None:
            if scope.kind != "class" or scope is self.scope:
                if name in scope.tensors:
                    return scope.tensors[name]
                if scope.binds(name):
                    return None  # bound here to something else
            scope = scope.parent
        return None

    def _model_move(self, key: str, call: cst.Call) -> None:
        """`model.to(device)` or `model = model.to(device)`: note it when a loop is around."""
        frames = self.loop_frames[-1]
        if not frames:
            return
        if is_host_move(call):
            frames[-1].offloads.add(key)
            return
        if self._holds_a_tensor(key) or TENSOR_WORDS.search(last_part(key)):
            return
        statement = self.statement if self.statement is not None and len(self.statement.body) == 1 else None
        body = frames[-1].node.body
        if not (type(body) is cst.IndentedBlock and len(body.body) > 1 and any(s is statement for s in body.body)):
            statement = None  # only a line of the loop body itself can be hoisted whole
        names = tuple(
            sub.value for arg in call.args for sub in walk(arg.value) if type(sub) is cst.Name
        )
        self.model_moves_in_loops.append(ModelMoveInLoop(key, call, statement, tuple(frames), names, self.scope))

    def _holds_a_tensor(self, key: str) -> bool:
        value = self.states[-1].get(key) if self.states and "." not in key else None
        # An Output may be a module (`cnn = CNN()`): `is_a_model` decides after the pass.
        return isinstance(value, (Batch, Moved, Host, Input)) or key in self.scope.tensors

    def _note_attribute(self, key: str, value: cst.BaseExpression) -> None:
        """`self.attr = ...` in a method: containers of modules, tensors made in `__init__`."""
        info = self._current_class()
        if info is None or not key.startswith("self.") or key.count(".") != 1:
            return
        attr = key.split(".", 1)[1]
        method = self._method_name()
        if method != "__init__":
            info.assigned_elsewhere.add(attr)
        statement = self.statement if self.statement is not None and len(self.statement.body) == 1 else None
        callees = _element_callees(value)
        if callees is not None:
            info.containers[attr] = Container(attr, statement, value, tuple(callees))
        elif method == "__init__":
            info.containers.pop(attr, None)  # `self.layers = nn.ModuleList(...)` replaced the list
        origin = tensor_origin(value)
        if method == "__init__" and origin is not None and origin.on_host and origin.rank == "tensor":
            info.tensor_attributes.setdefault(attr, TensorAttribute(attr, statement, value))
        elif method == "__init__":
            info.tensor_attributes.pop(attr, None)  # `self.x = self.x.to(device)`

    def _container_add(self, key: Optional[str], callees: list[str]) -> None:
        info = self._current_class()
        if info is None or key is None or not key.startswith("self.") or key.count(".") != 1:
            return
        info.added.setdefault(key.split(".", 1)[1], []).extend(callees)

    def _note_loss_build(self, home: Scope, key: str, value: cst.BaseExpression) -> None:
        """`criterion = nn.CrossEntropyLoss(weight=w)` with `w` on the CPU right now."""
        if not type(value) is cst.Call:
            return
        loss_class = last_part(dotted(value.func))
        if not loss_class.endswith("Loss"):
            return
        for keyword in ("weight", "pos_weight"):
            arg = keyword_arg(value, keyword)
            if arg is not None and self._on_host(arg.value):
                self.loss_builds.append(LossBuild(key, home, self.scope, value, arg.value, keyword))
        positional = positional_args(value)
        if positional and loss_class in WEIGHT_FIRST_LOSSES and self._on_host(positional[0].value):
            self.loss_builds.append(LossBuild(key, home, self.scope, value, positional[0].value, ""))

    def _on_host(self, expr: cst.BaseExpression) -> bool:
        origin = tensor_origin(expr)
        if origin is None and type(expr) is cst.Name:
            origin = self._lookup_tensor(expr.value)
        return origin is not None and origin.on_host and origin.rank != "scalar"

    def _note_class_call(self, node: cst.Call, callee: Optional[str]) -> None:
        info = self._current_class() or (self.class_stack[-1] if self.class_stack else None)
        if info is None:
            return
        name = last_part(callee)
        if name:
            info.called.add(name)
        if name in ("add_module", "register_module", "setattr"):
            info.registers_by_hand = True
        if name in MODULE_CONTAINERS:
            for arg in node.args:
                key = dotted(arg.value)
                if key is not None and key.startswith("self."):
                    info.wrapped.add(key.split(".", 1)[1])
        mc = method_call(node)
        if mc is not None and mc[1] in ("append", "insert", "extend") and positional_args(node):
            value = positional_args(node)[-1].value
            if mc[1] == "extend":
                callees = _element_callees(value) or []
            else:
                callees = [dotted(value.func) or ""] if type(value) is cst.Call else []
            self._container_add(dotted(mc[0]), callees)
        if mc is not None and _runs_on_device(self._method_name()):
            key = dotted(mc[0])
            if key is not None and key.startswith("self.") and (
                is_to_device_call(node) or mc[1] in ("type_as", "cpu", "to")
            ):
                info.moved_in_forward.add(key.split(".", 1)[1])
        if _runs_on_device(self._method_name()) and has_device_argument(node):
            for arg in node.args:
                key = dotted(arg.value)
                if key is not None and key.startswith("self."):
                    info.moved_in_forward.add(key.split(".", 1)[1])

    def visit_Return(self, node: cst.Return) -> None:
        # `return self.a` hands the tensor back unchanged: it meets nothing here.
        self.returned_as_is = node.value if type(node.value) is cst.Attribute else None

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node is self.returned_as_is:
            return
        if (
            self.slice_depth == 0 and type(node.value) is cst.Name and node.value.value == "self"
            and _runs_on_device(self._method_name())
        ):
            info = self._current_class()
            if info is not None:
                info.forward_reads.setdefault(node.attr.value, node)

    # CPU factory tensors meeting device tensors (DEV006)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if self.states and isinstance(node.operator, ARITHMETIC):
            state = self.states[-1]
            self._meet(node, value_of(node.left, state), value_of(node.right, state))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_targets(node.target)
        if self.states and isinstance(node.operator, AUGMENTED_ARITHMETIC):
            state = self.states[-1]
            self._meet(node, value_of(node.target, state), value_of(node.value, state))

    def _meet(self, at: cst.CSTNode, left: Optional[Value], right: Optional[Value]) -> None:
        for host, other in ((left, right), (right, left)):
            if isinstance(host, Host) and isinstance(other, DEVICE_SIDE):
                self._host_meeting(host, at, other, None)
                return

    def _host_meeting(self, host: Host, at: cst.CSTNode, other: Optional[Value], callee: Optional[str]) -> None:
        if self.expect_raise_depth:
            return
        self.host_meetings.append(HostMeeting(
            host, at, other, callee, self.scope, self.seq, id(host.call) in self.device_context_calls,
        ))

    def _meetings_in_call(self, node: cst.Call, callee: Optional[str]) -> None:
        if not self.states or tensor_factory(node) or is_to_device_call(node) or is_host_move(node):
            return
        state = self.states[-1]
        values = [value_of(arg, state) for arg in _call_operands(node)]
        other = next((v for v in values if isinstance(v, DEVICE_SIDE)), None)
        mc = method_call(node)
        for host in (v for v in values if isinstance(v, Host)):
            if mc is not None and mc[1] in TENSOR_BINARY_METHODS:
                receiver = value_of(mc[0], state)
                if isinstance(receiver, DEVICE_SIDE):
                    self._host_meeting(host, node, receiver, None)
            elif callee is not None and callee.startswith(TORCH_FUNCTION_PREFIXES):
                if other is not None and last_part(callee) not in NO_DEVICE_CHECK_FUNCTIONS:
                    self._host_meeting(host, node, other, None)
            elif (callee is not None and mc is None) or (callee or "").startswith("self."):
                # A model, a loss or a submodule: decided after the pass.
                self._host_meeting(host, node, other, callee)

    # calls

    def calls_within(self, node: cst.CSTNode) -> tuple[cst.Call, ...]:
        span = self.call_spans.get(id(node)) if type(node) is cst.Call else None
        if span is not None and span[1] >= 0:
            return tuple(self.calls[span[0]:span[1]])
        return calls_in(node)

    def leave_Call(self, original_node: cst.Call) -> None:
        start = self.call_spans[id(original_node)][0]
        self.call_spans[id(original_node)] = (start, len(self.calls))

    def visit_Call(self, node: cst.Call) -> None:
        self.call_spans[id(node)] = (len(self.calls), -1)
        self.calls.append(node)
        self._note_cuda_literals(node)
        self.seq += 1
        callee = dotted(node.func)
        if self.default_device_depth and tensor_factory(node):
            self.device_context_calls.add(id(node))
        self._note_device_calls(node, callee)
        self._note_class_call(node, callee)
        mc = method_call(node)
        if mc is not None and type(mc[0]) is cst.Call and is_to_device_call(node):
            self.moved_constructions.add(last_part(dotted(mc[0].func)))
        self._meetings_in_call(node, callee)
        if _is_prepare_call(node):
            self.prepares = True
            for info in self._enclosing_functions():
                info.prepares = True
        if is_to_device_call(node) or has_device_argument(node):
            self._note_move_inside()
        callee = dotted(node.func)
        if callee is None:
            return
        if "." not in callee:
            self.call_sites.append(CallSite(callee, node, self.scope, self.seq))
        if not self.states:
            return
        state = self.states[-1]
        operands = []
        for arg in node.args:
            value = value_of(arg.value, state)
            if value is not None:
                operands.append((arg.value, value))
        if any(isinstance(v, Batch) for _, v in operands):
            moved = BATCH_MOVED in state
            self.events.append(CallEvent(node, callee, tuple(operands), self.scope, self.seq, moved))

    def _note_device_calls(self, node: cst.Call, callee: Optional[str]) -> None:
        """Loads, saves, device choices, process groups, fixed GPU indices, `.numpy()`."""
        name = last_part(callee)
        if callee in ("torch.load", "th.load"):
            first = positional_args(node)
            source = cst.Module([]).code_for_node(first[0].value) if first else ""
            # Only an `if` about the device guards a load (`x if resume else None` does not).
            guarded = self.guard_depth > 0 or any(self.block_guards) or self._in_test()
            self.torch_loads.append(TorchLoad(node, self.scope, guarded, source))
        elif callee in ("torch.save", "th.save"):
            second = positional_args(node)[1:2] or [keyword_arg(node, "f")]
            if second[0] is not None:
                self.saved_paths.add(cst.Module([]).code_for_node(second[0].value))
        elif name in AVAILABILITY_CALLS and callee is not None and any(
            word in callee for word in ("cuda", "mps", "accelerator")
        ):
            self.fallback_choices += self.requiring_depth == 0
        elif name in ("set_default_device", "set_default_tensor_type"):
            self.default_device = True
        elif name == "init_process_group":
            self.distributed = True
        if name in ("backward", "step", "zero_grad") and method_call(node) is not None:
            for frame in self.loop_frames[-1]:
                frame.trains = True
        self._note_gpu_index(node, callee)
        self._note_numpy(node)

    def _note_gpu_index(self, node: cst.Call, callee: Optional[str]) -> None:
        """`set_device(0)`, `.cuda(0)`, `.to(0)`, `torch.device('cuda', 0)`, `device_ids=[0]`."""
        positional = positional_args(node)
        first = positional[0].value if positional else None
        name = last_part(callee)
        mc = method_call(node)
        if name == "set_device" or (mc is not None and mc[1] in ("cuda", "to") and dotted(mc[0]) != "torch"):
            if type(first) is cst.Integer:
                self._gpu_index(first, "integer")
        elif callee == "torch.device" and len(positional) == 2 and type(positional[1].value) is cst.Integer:
            if string_value(positional[0].value) == "cuda":
                self._gpu_index(positional[1].value, "integer")
        ids = keyword_arg(node, "device_ids")
        if ids is not None and type(ids.value) is cst.List:
            for element in ids.value.elements:
                if type(element.value) is cst.Integer:
                    self._gpu_index(element.value, "integer")

    def _gpu_index(self, node: cst.CSTNode, kind: str) -> None:
        # Tests pin devices on purpose (device maps, warnings about a wrong device).
        guarded = any(self.rank_guards) or self._in_test()
        self.gpu_indices.append(GpuIndex(node, kind, self.scope, guarded))

    def _note_numpy(self, node: cst.Call) -> None:
        mc = method_call(node)
        if mc is None or mc[1] != "numpy" or not self.states:
            return
        value = value_of(mc[0], self.states[-1])
        if isinstance(value, (Moved, Output)):
            self.numpy_calls.append(NumpyCall(
                node, value, self.scope, self.seq, _detached(mc[0]), self.no_grad_depth > 0,
            ))

    def _note_move_inside(self) -> None:
        """Functions and classes that move something: collate_fns, device-aware Datasets."""
        for info in self._enclosing_functions():
            info.moves_inside = True
        scope: Optional[Scope] = self.scope
        while scope is not None:
            if scope.kind == "class" and scope.parent is self.module_scope:
                self.moving_classes.add(scope.name)
            scope = scope.parent

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if "LOCAL_RANK" in node.value:
            self.distributed = True
        if "CUDA_VISIBLE_DEVICES" in node.value:
            self.per_process_visibility = True
        # Only an unconditional NCCL backend: `"nccl" if cuda else "gloo"` can still run on CPU.
        if "nccl" in node.value and not self._guarded():
            self.uses_nccl = True

    def _note_cuda_literals(self, node: cst.Call) -> None:
        callee = dotted(node.func)
        positional = positional_args(node)
        first = positional[0].value if positional else None
        if callee in ("torch.device", "torch.set_default_device") and first is not None:
            self._device_position(first, callee)
        mc = method_call(node)
        if mc is not None:
            receiver, method = mc
            if method == "to" and first is not None:
                self._device_position(first, ".to")
            elif method == "cuda" and dotted(receiver) != "torch":
                assert type(node.func) is cst.Attribute
                self._cuda_literal(node.func.attr, ".cuda", call=node)
        for name in ("device", "map_location"):
            arg = keyword_arg(node, name)
            if arg is not None:
                self._device_position(arg.value, f"{name}=")


def value_of(expr: cst.CSTNode, state: dict[str, Value]) -> Optional[Value]:
    """What a loop-body expression holds, as far as devices go; None when it is unrelated."""
    if type(expr) is cst.Name:
        return state.get(expr.value)
    if type(expr) is cst.Attribute:
        base = value_of(expr.value, state)
        if expr.attr.value in ("device", "shape", "dtype", "is_cuda"):
            return None
        key = dotted(expr)
        if base is None and expr.attr.value in ("weight", "bias") and key and key.startswith("self."):
            return Input(key)  # a parameter: where the module is
        return base if isinstance(base, (Batch, Output)) else None
    if type(expr) is cst.Subscript:
        return value_of(expr.value, state)
    if type(expr) is cst.Call:
        return _value_of_call(expr, state)
    if type(expr) is cst.BinaryOperation:
        left = value_of(expr.left, state)
        if isinstance(left, Host):  # `mask * x` lives where `x` does (or fails)
            right = value_of(expr.right, state)
            return right if right is not None else left
        return left if left is not None else value_of(expr.right, state)
    if type(expr) is cst.UnaryOperation:
        return value_of(expr.expression, state)
    if type(expr) is cst.Comparison:  # `mask == 0` lives where `mask` does
        left = value_of(expr.left, state)
        return left if isinstance(left, (Host, Input)) else None
    return None


def batch_path(expr: cst.CSTNode) -> str:
    """`batch[0]` and `batch[1]` are two tensors; `x.view(-1)` and `x` are one."""
    while True:
        if type(expr) in (cst.Subscript, cst.Attribute):
            return cst.Module([]).code_for_node(expr)
        if type(expr) is cst.Call and type(expr.func) is cst.Attribute:
            expr = expr.func.value
        elif type(expr) in (cst.BinaryOperation,):
            expr = expr.left
        else:
            return cst.Module([]).code_for_node(expr)


def _value_of_call(call: cst.Call, state: dict[str, Value]) -> Optional[Value]:
    if is_host_move(call):
        return None
    device = keyword_arg(call, "device")
    if device is not None and type(device.value) is cst.Attribute and device.value.attr.value == "device":
        # `torch.arange(n, device=freqs.device)` lives where `freqs` does.
        if isinstance(value_of(device.value.value, state), Host):
            return Host(call)
    if is_to_device_call(call) or has_device_argument(call):
        return MOVED
    if is_host_factory(call):
        return Host(call)
    mc = method_call(call)
    if mc is not None:
        receiver, method = mc
        if method in HOST_METHODS:
            return None
        if method == "type_as" and call.args:  # takes the other tensor's type and device
            return value_of(call.args[0].value, state)
        if method in DEVICE_PRESERVING_METHODS:
            base = value_of(receiver, state)
            if base is not None:
                return base
    callee = dotted(call.func)
    if callee is not None and callee.startswith(TORCH_FUNCTION_PREFIXES) and tensor_factory(call) is None:
        # `torch.sigmoid(out)`, `F.softmax(logits, 1)`: where the first tensor lives.
        positional = positional_args(call)
        first = value_of(positional[0].value, state) if positional else None
        if isinstance(first, (Moved, Output, Input, Host)):
            return first
    return Output(callee) if callee is not None else None


# --- helpers of the pass ----------------------------------------------------------------------

# Batch names that usually hold a batch object (BatchEncoding, PyG/DGL graphs): `.to` may work
# in place on them, so a bare `.to` is no proof of a discarded copy.
OBJECT_BATCH_NAME = re.compile(r"batch|enc|token|data_?dict", re.IGNORECASE)
# Names that hold tensors even though MODEL_NAME matches them (`encoder_out`, `net_input`).
TENSOR_WORDS = re.compile(
    r"out|feat|emb|state|logit|hidden|input|mask|weight|param|grad|loss|pred|image|img|label",
    re.IGNORECASE,
)
# Iterables that yield data batches by their name, beyond LOADER_NAME (`train_data`, `test_set`).
DATA_SOURCE = re.compile(r"data(set)?$|(^|_)(set|ds)$|^(train|val|valid|test|eval)$|batch", re.IGNORECASE)
FIXED_CUDA_INDEX = re.compile(r"^cuda:\d+$")
WEIGHT_FIRST_LOSSES = frozenset({"CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss"})
MODULE_CONTAINERS = frozenset({"Sequential", "ModuleList", "ModuleDict"})
ARITHMETIC = (
    cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
    cst.MatrixMultiply,
)
AUGMENTED_ARITHMETIC = (
    cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign,
    cst.FloorDivideAssign, cst.MatrixMultiplyAssign,
)
DEVICE_SIDE = (Moved, Output, Input)
# Tensor methods that need their argument on the receiver's device.
TENSOR_BINARY_METHODS = frozenset(
    {
        "add", "sub", "mul", "div", "matmul", "mm", "bmm", "masked_fill", "masked_fill_",
        "gather", "index_select", "scatter", "scatter_", "scatter_add", "scatter_add_", "add_",
        "mul_", "sub_", "div_", "where", "masked_select", "maximum", "minimum", "eq", "ne",
        "lt", "le", "gt", "ge",
    }
)
TORCH_FUNCTION_PREFIXES = ("torch.", "F.", "functional.", "nn.functional.")
# Calls that accept tensors from several devices, or whose tensors are not data.
NO_DEVICE_CHECK_FUNCTIONS = frozenset(
    {"save", "load", "manual_seed", "set_printoptions", "is_tensor", "numel", "device",
     "set_rng_state", "from_numpy", "as_tensor", "tensor", "allclose", "equal", "isclose"}
)
# Modules without parameters or buffers: nothing of theirs needs moving.
STATELESS_MODULES = re.compile(
    r"^(ReLU6?|GELU|SiLU|Mish|Tanh|Sigmoid|Softplus|Softmax|LogSoftmax|ELU|SELU|CELU|LeakyReLU"
    r"|Hardswish|Hardtanh|Hardsigmoid|Identity|Flatten|Unflatten|(Adaptive)?(Max|Avg)Pool\dd"
    r"|Dropout\d?d?|AlphaDropout|Upsample|PixelShuffle|PixelUnshuffle|ZeroPad\dd|ConstantPad\dd)$"
)
FOREIGN_FRAMEWORKS = frozenset(
    {"flax", "jax", "haiku", "equinox", "tensorflow", "keras", "mindspore", "paddle", "mlx",
     "oneflow", "jittor", "megengine", "mxnet"}
)
SCALAR_ANNOTATIONS = frozenset({"int", "float", "bool", "str", "list", "tuple", "dict"})


@dataclass(frozen=True)
class TensorOrigin:
    """The factory a value was made by, through method chains like `.float().view(...)`."""

    factory: cst.Call
    on_host: bool  # no `device=` and not moved along the chain
    rank: str  # "scalar", "tensor" or "unknown" (see `factory_rank`)


SHAPING_METHODS = frozenset({"view", "reshape", "unsqueeze", "expand", "repeat", "flatten"})
# torch functions whose result lives where (and has the rank) of their first argument.
ELEMENTWISE = frozenset(
    {"tril", "triu", "sin", "cos", "exp", "log", "sqrt", "abs", "flip", "roll", "cumsum",
     "diag", "outer", "pow", "sigmoid", "tanh", "clamp"}
)


def tensor_origin(expr: Optional[cst.BaseExpression]) -> Optional[TensorOrigin]:
    moved, shaped = False, False
    if type(expr) is cst.BinaryOperation:
        # `1.0 / (10000 ** (torch.arange(0, d, 2) / d))`: where the tensor operand came from.
        return tensor_origin(expr.left) or tensor_origin(expr.right)
    while type(expr) is cst.Call:
        if tensor_factory(expr) is not None:
            rank = factory_rank(expr)
            if shaped and rank == "unknown":
                rank = "tensor"
            on_host = not moved and keyword_arg(expr, "device") is None
            return TensorOrigin(expr, on_host, rank)
        callee = dotted(expr.func) or ""
        if callee.startswith("torch.") and last_part(callee) in ELEMENTWISE and expr.args:
            expr = expr.args[0].value  # `torch.tril(torch.ones(T, T))`
            continue
        mc = method_call(expr)
        if mc is None:
            return None
        if is_host_move(expr):
            moved = False
        elif is_to_device_call(expr):
            moved = True
        elif mc[1] in SHAPING_METHODS:
            shaped = True
        elif mc[1] not in DEVICE_PRESERVING_METHODS and mc[1] != "to":
            return None
        expr = mc[0]
    return None


def _names_a_model(key: str) -> bool:
    name = last_part(key)
    return MODEL_NAME.search(name) is not None and TENSOR_WORDS.search(name) is None


def _next_batch_of_a_loader(value: cst.BaseExpression) -> bool:
    """`next(iter(train_loader))`, `next(train_iter)`: one batch, unpacked into tensors."""
    if not (type(value) is cst.Call and dotted(value.func) == "next" and value.args):
        return False
    inner = value.args[0].value
    if type(inner) is cst.Call and dotted(inner.func) == "iter" and inner.args:
        inner = inner.args[0].value
    return _names_a_loader(inner)


def _walks_a_loader(loop: Loop) -> bool:
    """The loop's iterables are named like data loaders (not `zip(self.stages, devices)`)."""
    return all(_names_a_loader(src) for src in loop.sources)


def _names_a_loader(expr: cst.BaseExpression) -> bool:
    """`train_loader`, `dataloaders[phase]`, `self.train_dl`, `test_data`, `batches`."""
    if type(expr) is cst.Subscript:
        expr = expr.value
    name = last_part(dotted(expr))
    return LOADER_NAME.search(name) is not None or DATA_SOURCE.search(name) is not None


def _element_callees(value: cst.BaseExpression) -> Optional[list[str]]:
    """What builds the elements of a list/dict display or comprehension (None: not one)."""
    if type(value) in (cst.List, cst.Tuple):
        elements = [e.value for e in value.elements]
    elif type(value) is cst.Dict:
        elements = [e.value for e in value.elements if type(e) is cst.DictElement]
    elif type(value) in (cst.ListComp, cst.GeneratorExp):
        elements = [value.elt]
    elif type(value) is cst.DictComp:
        elements = [value.value]
    else:
        return None
    return [d for d in (dotted(e.func) for e in elements if type(e) is cst.Call) if d]


def _call_operands(call: cst.Call) -> Iterator[cst.BaseExpression]:
    """The arguments of a call, with the elements of a list or tuple argument (`torch.cat`)."""
    for arg in call.args:
        if type(arg.value) in (cst.List, cst.Tuple):
            yield from (e.value for e in arg.value.elements)
        else:
            yield arg.value


def _detached(expr: cst.BaseExpression) -> bool:
    return any(
        (type(sub) is cst.Attribute and sub.attr.value in ("detach", "data", "detach_"))
        for sub in walk(expr)
    )


def _forward_inputs(node: cst.FunctionDef) -> dict[str, Value]:
    """`forward`'s tensor arguments: no default value and no scalar annotation."""
    if node.name.value != "forward":
        return {}
    inputs: dict[str, Value] = {}
    for param in node.params.params[1:]:
        annotation = dotted(param.annotation.annotation) if param.annotation else None
        if param.default is None and last_part(annotation) not in SCALAR_ANNOTATIONS:
            inputs[param.name.value] = Input(param.name.value)
    return inputs


def _is_no_grad(expr: cst.BaseExpression) -> bool:
    call = expr.func if type(expr) is cst.Call else expr
    name = last_part(dotted(call))
    if name == "set_grad_enabled" and type(expr) is cst.Call:
        args = positional_args(expr)
        return bool(args) and type(args[0].value) is cst.Name and args[0].value.value == "False"
    return name in ("no_grad", "inference_mode")


def _runs_on_device(method: str) -> bool:
    """`forward`, and Lightning's `training_step`/`validation_step`/...: they see the module's
    tensors on its device."""
    return method == "forward" or method.endswith("_step")


def _availability_calls(test: cst.BaseExpression) -> int:
    return sum(
        1 for sub in walk(test)
        if type(sub) is cst.Call and last_part(dotted(sub.func)) in AVAILABILITY_CALLS
    )


def _expects_raise(expr: cst.BaseExpression) -> bool:
    call = expr.func if type(expr) is cst.Call else expr
    return last_part(dotted(call)) in ("raises", "assertRaises", "assertRaisesRegex")


def _is_device_context(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Call and dotted(expr.func) in ("torch.device", "th.device")


def _is_rank_skip(decorator: cst.BaseExpression) -> bool:
    return (
        type(decorator) is cst.Call and last_part(dotted(decorator.func)) in ("skipif", "skipIf", "skipUnless")
        and _is_rank_test(decorator)
    )


def _is_rank_test(test: cst.BaseExpression) -> bool:
    """A test about which process this is or how many there are."""
    return any(
        word in RANK_WORDS or "rank" in word or "world" in word or "distributed" in word
        for word in identifier_words(test)
    )


RANK_WORDS = frozenset({"ddp", "is_initialized", "n_gpu", "ngpu", "ngpus", "num_gpus", "gpus"})


def _loop_sources(iterable: cst.BaseExpression) -> tuple[list[cst.BaseExpression], bool]:
    """The loader-like iterables of a `for`, unwrapped from enumerate/tqdm/zip.

    Returns (sources, skip_first): skip_first when `enumerate` puts an index first.
    """
    skip_first = False
    expr = iterable
    while type(expr) is cst.Call:
        callee = last_part(dotted(expr.func))
        positional = positional_args(expr)
        if callee not in LOOP_WRAPPERS or not positional:
            break
        if callee == "enumerate":
            skip_first = True
        if callee == "zip":
            sources = [a.value for a in positional if _is_source(a.value)]
            return (sources if len(sources) == len(positional) else []), skip_first
        expr = positional[0].value
    return ([expr] if _is_source(expr) else []), skip_first


def _is_source(expr: cst.BaseExpression) -> bool:
    if type(expr) is cst.Subscript:
        expr = expr.value
    return dotted(expr) is not None


def _tail_names(target: cst.Tuple) -> list[Optional[str]]:
    out: list[Optional[str]] = []
    for element in target.elements[1:]:
        out.extend(target_names(element.value))
    return out


def _exits(body: cst.BaseSuite) -> bool:
    statements = body.body
    if not statements:
        return False
    last = statements[-1]
    small = last.body if type(last) is cst.SimpleStatementLine else [last]
    if type(body) is cst.SimpleStatementSuite:
        small = body.body
    for stmt in small:
        if type(stmt) in (cst.Raise, cst.Return):
            return True
        if type(stmt) is cst.Expr and type(stmt.value) is cst.Call:
            if dotted(stmt.value.func) in EXITS:
                return True
    return False


def _is_unconditional_skip(decorator: cst.BaseExpression) -> bool:
    """`@pytest.mark.skip(...)`, `@unittest.skip(...)`: the body never runs."""
    func = decorator.func if type(decorator) is cst.Call else decorator
    return last_part(dotted(func)) == "skip"


def _cuda_arms(expr: cst.BaseExpression) -> Optional[list[tuple[cst.CSTNode, bool]]]:
    """The string arms of a literal or conditional expression, each with is-it-CUDA."""
    if type(expr) is cst.IfExp:
        body, orelse = _cuda_arms(expr.body), _cuda_arms(expr.orelse)
        if body is None and orelse is None:
            return None
        return (body or [(expr.body, False)]) + (orelse or [(expr.orelse, False)])
    if string_value(expr) is not None:
        return [(expr, is_cuda_literal(expr))]
    return None


def _is_device_value(value: cst.BaseExpression) -> bool:
    """`torch.device(...)`, `'cuda' if ... else 'cpu'`, `accelerator.device`."""
    if type(value) is cst.Call:
        return dotted(value.func) == "torch.device"
    if type(value) is cst.IfExp:
        # `'cuda' if ... else 'cpu'`, `torch.device(...) if ... else None`; not
        # `head(x) if ... else None`, a tensor, whatever its arms call.
        return _is_device_arm(value.body) and (
            _is_device_arm(value.orelse) or type(value.orelse) in (cst.Name, cst.Attribute))
    if type(value) is cst.Attribute:
        return value.attr.value == "device"
    return False


def _is_device_arm(value: cst.BaseExpression) -> bool:
    if string_value(value) is not None:
        return True
    if type(value) is cst.Call:
        return _names_a_device(last_part(dotted(value.func)))  # torch.device(...), get_device()
    return _is_device_value(value)


def _binding_kind(key: str, value: cst.BaseExpression) -> str:
    """What `key = value` does to where `key` lives: move, keep (a wrapper of itself), rebind."""
    if is_host_move(value):
        return "rebind"  # `model = model.cpu()`: back on the host
    if is_to_device_call(value):
        return "move"
    if type(value) is cst.Call:
        for arg in value.args:
            if dotted(arg.value) == key:
                return "keep"  # DataParallel(model), torch.compile(model), prepare(model)
    return "rebind"


def _is_cpu_device(value: cst.BaseExpression) -> bool:
    if type(value) is cst.Call and dotted(value.func) == "torch.device":
        args = positional_args(value)
        value = args[0].value if args else value
    return string_value(value) == "cpu"


def _names_a_device(name: str) -> bool:
    lowered = name.lower()
    return "device" in lowered and "type" not in lowered or lowered == "dev"


def _is_prepare_call(value: cst.BaseExpression) -> bool:
    return type(value) is cst.Call and last_part(dotted(value.func)) in (
        "prepare", "setup_dataloaders"
    )


def _wraps_parallel(calls: tuple[cst.Call, ...]) -> bool:
    return any(last_part(dotted(call.func)) in PARALLEL_WRAPPERS for call in calls)


def _builds_loss(value: cst.BaseExpression, calls: tuple[cst.Call, ...],
                 functional_imports: set[str]) -> bool:
    key = dotted(value)
    if key is not None and _is_functional_loss(key, functional_imports):
        return True  # `loss_fn = F.cross_entropy`
    return any(last_part(dotted(call.func)).endswith("Loss") for call in calls)


def _is_functional_loss(key: str, functional_imports: set[str]) -> bool:
    if key in functional_imports:
        return True
    return last_part(key) in FUNCTIONAL_LOSSES and key.startswith(FUNCTIONAL_PREFIXES)


def _mentions_availability(calls: tuple[cst.Call, ...]) -> bool:
    return any(last_part(dotted(call.func)) in AVAILABILITY_CALLS for call in calls)


# --- the facts the rules query ----------------------------------------------------------------


_WALKER = Walker(_FactsVisitor)  # its only state: what it learned about each node type

def learn_common_shapes() -> None:
    """Before a pool forks: the walker's plans for most node types, inherited by every worker."""
    _WALKER.learn(cst.parse_module(COMMON_SHAPES))


class Facts:
    """The shared facts of one module, built by one pass."""

    def __init__(self, module: cst.Module) -> None:
        visitor = _FactsVisitor()
        _WALKER.run(module, visitor)
        self.module = module
        self.module_scope = visitor.module_scope
        self.loops = visitor.loops
        self.events = visitor.events
        self.cuda_literals = visitor.cuda_literals
        self.functions = visitor.functions
        self.moving_classes = visitor.moving_classes
        self.call_sites = visitor.call_sites
        self.functional_imports = visitor.functional_imports
        self.prepares = visitor.prepares
        self.uses_nccl = visitor.uses_nccl
        self.torch_imported = visitor.torch_imported
        self.last_import = visitor.last_import
        self.module_devices = visitor.module_devices
        self.scopes = visitor.scopes
        self.discarded_moves = visitor.discarded_moves
        self.host_meetings = visitor.host_meetings
        self.model_moves_in_loops = visitor.model_moves_in_loops
        self.torch_loads = visitor.torch_loads
        self.saved_paths = visitor.saved_paths
        self.device_fallback = visitor.fallback_choices > 0
        self.default_device = visitor.default_device
        self.numpy_calls = visitor.numpy_calls
        self.loss_builds = visitor.loss_builds
        self.gpu_indices = visitor.gpu_indices
        self.distributed = visitor.distributed
        self.per_process_visibility = visitor.per_process_visibility
        self.classes = visitor.classes
        self.moved_constructions = visitor.moved_constructions
        self.foreign_names = visitor.foreign_names

    # name resolution

    def resolve(self, key: str, scope: Scope) -> Optional[Scope]:
        """The scope whose binding `key` refers to from `scope` (Python's LEGB, minus B)."""
        if key.startswith("self."):
            return scope.class_scope
        root = key.split(".", 1)[0]
        current: Optional[Scope] = scope
        while current is not None:
            if current.kind != "class" or current is scope:
                if current.binds(root) or key in current.events:
                    return current
            current = current.parent
        return None

    # models

    def device_model(
        self, callee: str, scope: Scope, seq: Optional[int] = None, follow_calls: bool = True,
        batch_moved: bool = False,
    ) -> Optional[ModelOnDevice]:
        """The model `callee` names when it lives on a device at `seq`, else None.

        In the scope that binds it, the last binding before the use decides (a later
        `model = other` undoes an earlier move); seen from a nested function, any move does.
        """
        for suffix in (".forward", ".module"):
            if callee.endswith(suffix):
                callee = callee[: -len(suffix)]
        home = self.resolve(callee, scope)
        if home is None:
            return None
        moved_at = self._moved_before(home, callee, seq if home is scope else None)
        if moved_at is not None:
            return ModelOnDevice(callee, moved_at, callee in home.parallel)
        if home.kind != "function" or callee not in home.params or callee in home.events:
            return None
        if MODEL_NAME.search(callee) and self._takes_device(home):
            return ModelOnDevice(callee, None, callee in home.parallel, "its function takes the device")
        if MODEL_NAME.search(callee) and batch_moved:
            return ModelOnDevice(
                callee, None, callee in home.parallel, "this loop moves other batch tensors to it"
            )
        if follow_calls:
            return self._model_from_call_sites(home, callee)
        return None

    def _moved_before(self, home: Scope, key: str, seq: Optional[int]) -> Optional[cst.CSTNode]:
        events = home.events.get(key, [])
        if seq is None:
            return home.moved_at(key)
        for event_seq, kind, node in reversed(events):
            if event_seq > seq or kind == "keep":
                continue
            return node if kind == "move" else None
        return None

    def _takes_device(self, function: Scope) -> bool:
        return any(
            "device" in p.lower() or p in ("gpu", "rank", "local_rank")
            for p in function.params
        )

    def _arguments_for(self, function: Scope, param: str) -> Iterator[tuple[str, CallSite]]:
        """What this file's calls of `function` pass for `param` (dotted names only)."""
        info = self.functions.get(function.name)
        if info is None or info.scope is not function:
            return
        index = function.params.index(param)
        for site in self.call_sites:
            if site.callee != function.name:
                continue
            arg = keyword_arg(site.call, param)
            positional = positional_args(site.call)
            expr = arg.value if arg else positional[index].value if index < len(positional) else None
            key = dotted(expr) if expr is not None else None
            if key is not None:
                yield key, site

    def _model_from_call_sites(self, function: Scope, param: str) -> Optional[ModelOnDevice]:
        """`train(model, loader)` called with a module-level model that was moved."""
        for key, site in self._arguments_for(function, param):
            model = self.device_model(key, site.scope, site.seq, follow_calls=False)
            if model is not None:
                return model
        return None

    # losses

    def is_loss(self, callee: str, scope: Scope) -> bool:
        if _is_functional_loss(callee, self.functional_imports):
            return True
        home = self.resolve(callee, scope)
        if home is not None and callee in home.losses:
            return True
        return LOSS_NAME.match(last_part(callee)) is not None

    # loaders

    def is_cpu_loader_loop(self, loop: Loop) -> bool:
        if loop.scope.uses_accelerator:
            return False
        return all(self._is_cpu_loader(src, loop.scope, 0) for src in loop.sources)

    def _is_cpu_loader(self, expr: cst.BaseExpression, scope: Scope, depth: int) -> bool:
        if type(expr) is cst.Subscript:
            expr = expr.value
        key = dotted(expr)
        return key is not None and self._is_cpu_loader_key(key, scope, depth)

    def _is_cpu_loader_key(self, key: str, scope: Scope, depth: int) -> bool:
        if depth > 3:
            return False
        home = self.resolve(key, scope)
        if home is not None and key in home.prepared:
            return False
        if home is not None and key in home.loaders:
            return self._binding_yields_cpu(home.loaders[key], home, depth)
        if home is not None and key in home.unpacked_from:
            return self._factory_yields_cpu(home.unpacked_from[key])
        if home is not None and home.kind == "function" and key in home.params and depth == 0:
            # `evaluate(model, loader)`: the loaders this file hands in decide.
            for arg, site in self._arguments_for(home, key):
                if not self._is_cpu_loader_key(arg, site.scope, depth + 1):
                    return False
        if self.prepares:
            return False  # a loader from elsewhere in a file that prepares its loaders
        return LOADER_NAME.search(last_part(key)) is not None

    def _factory_yields_cpu(self, call: cst.Call) -> bool:
        """`train_dl, val_dl = make_loaders(...)`: CPU only when this file's own function
        builds them without preparing or moving them; an imported factory is unknown."""
        if has_device_argument(call) or _is_prepare_call(call):
            return False
        info = self.functions.get(dotted(call.func) or "")
        return info is not None and not info.moves_inside and not info.prepares

    def _binding_yields_cpu(self, call: cst.BaseExpression, scope: Scope, depth: int) -> bool:
        assert type(call) is cst.Call
        callee = last_part(dotted(call.func))
        positional = positional_args(call)
        if callee in LOOP_WRAPPERS:  # `pbar = tqdm(loader)`
            return self._is_cpu_loader(positional[0].value, scope, depth + 1)
        if has_device_argument(call) or contains_move(call):
            return False  # DeviceDataLoader(dl, device), TensorDataset(x.to(device)) inline
        dataset = keyword_arg(call, "dataset")
        dataset_expr = dataset.value if dataset else positional[0].value if positional else None
        if dataset_expr is not None and self._dataset_on_device(dataset_expr, scope):
            return False
        collate = keyword_arg(call, "collate_fn")
        if collate is not None and self._collate_moves(collate.value):
            return False
        return True

    def _dataset_on_device(self, expr: cst.BaseExpression, scope: Scope) -> bool:
        key = dotted(expr)
        if key is not None:
            home = self.resolve(key, scope)
            if home is None or key not in home.datasets:
                return False
            expr, scope = home.datasets[key], home
        if not type(expr) is cst.Call:
            return False
        if contains_move(expr) or last_part(dotted(expr.func)) in self.moving_classes:
            return True
        for arg in expr.args:
            name = dotted(arg.value)
            if name is not None:
                home = self.resolve(name, scope)
                if home is not None and name in home.data_moves:
                    return True
        return False

    def _collate_moves(self, expr: cst.BaseExpression) -> bool:
        if contains_move(expr):
            return True
        key = dotted(expr)
        if key is None:
            return False
        info = self.functions.get(key)
        return info is not None and info.moves_inside

    # the batch-placement findings DEV002, DEV003 and DEV004 share

    @cached_property
    def unmoved_uses(self) -> list[UnmovedUse]:
        """Every CPU batch value that reaches a device model or a loss next to device data.

        One use per (loop, batch origin): the first, since moving the batch once fixes all.
        """
        seen: set[tuple[int, str]] = set()
        uses: list[UnmovedUse] = []
        cpu_loops: dict[int, bool] = {}
        for event in self.events:
            for use in self._uses_in(event):
                loop = use.batch.loop
                if id(loop) not in cpu_loops:
                    cpu_loops[id(loop)] = self.is_cpu_loader_loop(loop)
                if not cpu_loops[id(loop)] or LENGTHS_NAME.search(use.batch.var):
                    continue
                ident = (id(loop), batch_path(use.arg))
                if ident in seen:
                    continue
                seen.add(ident)
                uses.append(use)
        return uses

    def _uses_in(self, event: CallEvent) -> Iterator[UnmovedUse]:
        model = self.device_model(
            event.callee, event.scope, event.seq, batch_moved=event.after_batch_move
        )
        if model is not None and not model.scatters_inputs:
            for arg, value in event.operands:
                if isinstance(value, Batch):
                    yield self._use("model", event, arg, value, model)
            return
        if model is None and self.is_loss(event.callee, event.scope):
            device_side = self._device_operand(event)
            if device_side is None:
                return
            for arg, value in event.operands:
                if isinstance(value, Batch):
                    yield self._use("loss", event, arg, value, device_side)

    def _device_operand(self, event: CallEvent) -> Optional[ModelOnDevice]:
        for _, value in event.operands:
            if isinstance(value, Output):
                model = self.device_model(
                    value.callee, event.scope, event.seq, batch_moved=event.after_batch_move
                )
                if model is not None:
                    return model
            elif isinstance(value, Moved):
                return ModelOnDevice("", None, False)
        return None

    def _use(self, kind: str, event: CallEvent, arg: cst.CSTNode, batch: Batch,
             model: ModelOnDevice) -> UnmovedUse:
        early = batch.loop.early_moves.get(batch.origin)
        dict_like = any(a.value is arg and a.star == "**" for a in event.call.args) or (
            type(arg) is cst.Subscript
            and any(string_value(e.slice.value) is not None for e in arg.slice
                    if type(e.slice) is cst.Index)
        )
        return UnmovedUse(kind, event.call, event.callee, arg, batch, model, early, dict_like)

    # modules and classes (DEV006, DEV009, DEV010, DEV012)

    @cached_property
    def module_classes(self) -> set[str]:
        """Classes of this file that are `nn.Module`s, directly or through another class here."""
        found: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, info in self.classes.items():
                if name not in found and any(self._is_module_base(b, found) for b in info.bases):
                    found.add(name)
                    changed = True
        return found

    def is_a_model(self, key: str, scope: Scope) -> bool:
        """Named like a model (`model`, `netG`, `encoder`), or bound to a module: `nn.X(...)`,
        a module class of this file, `AutoModel...from_pretrained(...)`."""
        if _names_a_model(key):
            return True
        home = self.resolve(key, scope)
        for _, _, value in (home.events.get(key, ()) if home is not None else ()):
            for sub in walk(value):
                callee = dotted(sub.func) if type(sub) is cst.Call else None
                if callee and (self.is_module_constructor(callee) or "Model" in callee):
                    return True
        return False

    def _is_module_base(self, base: str, known: set[str]) -> bool:
        """`nn.Module`, `LightningModule`, `nn.Sequential`, a module class of this file; not
        flax's `nn.Module` (`from flax import linen as nn`) and its kin."""
        if base.split(".")[0] in self.foreign_names:
            return False
        name = last_part(base)
        return name.endswith("Module") or name in MODULE_CONTAINERS or name in known

    def is_module_constructor(self, callee: str) -> bool:
        """`nn.Linear`, `torch.nn.Conv2d`, or a module class defined in this file."""
        name = last_part(callee)
        if callee.startswith(("nn.", "torch.nn.")) and name[:1].isupper():
            return not name.startswith("Parameter") and not STATELESS_MODULES.match(name)
        return name in self.module_classes

    @cached_property
    def moved_classes(self) -> set[str]:
        """Module classes whose instances this file moves to a device (and the classes they
        build inside), plus Lightning modules, which the Trainer moves."""
        moved = {n for n, info in self.classes.items()
                 if any(last_part(b) == "LightningModule" for b in info.bases)}
        moved |= self.moved_constructions & set(self.classes)
        for scope in self.scopes:
            for key, events in scope.events.items():
                if not any(kind == "move" for _, kind, _ in events):
                    continue
                for _, _, value in events:
                    for sub in walk(value):
                        if type(sub) is cst.Call and last_part(dotted(sub.func)) in self.classes:
                            moved.add(last_part(dotted(sub.func)))
        pending = list(moved)
        while pending:
            info = self.classes.get(pending.pop())
            for name in (info.called if info else ()):
                if name in self.classes and name not in moved:
                    moved.add(name)
                    pending.append(name)
        return moved & self.module_classes

    def forward_class(self, scope: Scope) -> Optional[ClassInfo]:
        """The class whose `forward` (or a function nested in it) `scope` is."""
        current: Optional[Scope] = scope
        while current is not None and current.kind == "function":
            parent = current.parent
            if parent is not None and parent.kind == "class":
                info = self.classes.get(parent.name)
                if current.name == "forward" and info is not None and info.scope is parent:
                    return info
                return None
            current = parent
        return None

    @cached_property
    def moves_a_model(self) -> bool:
        """Some model of this file is moved to a device (`model.to(device)`, `.cuda()`)."""
        for scope in self.scopes:
            for key, events in scope.events.items():
                if _names_a_model(key) and any(
                    kind == "move" and not is_host_move(node) for _, kind, node in events
                ):
                    return True
        return False

    def is_in_memory_buffer(self, source: str, scope: Scope) -> bool:
        """`torch.load(buffer)` of an `io.BytesIO` this file filled: same process, same device."""
        home = self.resolve(source, scope) if dotted_name(source) else None
        value = home.datasets.get(source) if home is not None else None
        return type(value) is cst.Call and last_part(dotted(value.func)) == "BytesIO"

    def nn_prefix(self) -> Optional[str]:
        """How this file spells `torch.nn`: `nn` when bound at module level, else `torch.nn`."""
        if self.module_scope.binds("nn"):
            return "nn"
        return "torch.nn" if self.torch_imported else None

    # DEV006

    def meets_device(self, meeting: HostMeeting) -> bool:
        """The CPU factory tensor meets a tensor that lives on the device."""
        if meeting.in_default_device or self.default_device:
            return False
        forward = self.forward_class(meeting.scope)
        if forward is not None and forward.name not in self.moved_classes:
            return False
        if meeting.callee is not None:
            if forward is not None and meeting.callee.startswith("self."):
                attr = meeting.callee.split(".")[1]
                return attr not in forward.methods  # a submodule, on the module's device
            if self._moved_model(meeting.callee, meeting):
                return True
            if meeting.other is None or not self.is_loss(meeting.callee, meeting.scope):
                return False
        return self._on_device(meeting.other, meeting, forward)

    def _on_device(self, value: Optional[Value], meeting: HostMeeting, forward: Optional[ClassInfo]) -> bool:
        if isinstance(value, Moved):
            return True
        if isinstance(value, Input):
            return forward is not None
        if isinstance(value, Output):
            if forward is not None and value.callee.startswith("self."):
                return value.callee.split(".")[1] not in forward.methods
            return self._moved_model(value.callee, meeting)
        return False

    def _moved_model(self, callee: str, meeting: HostMeeting) -> bool:
        """A model this file moves itself (not one only inferred to be on the device), and
        not one wrapped in DataParallel/DDP, which move CPU inputs themselves."""
        model = self.device_model(callee, meeting.scope, meeting.seq)
        return model is not None and model.moved_at is not None and not model.scatters_inputs


def dotted_name(text: str) -> bool:
    return re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", text) is not None


