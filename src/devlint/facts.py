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

from devlint.syntax import (
    DEVICE_PRESERVING_METHODS,
    HOST_METHODS,
    contains_move,
    dotted,
    has_device_argument,
    identifier_words,
    is_cuda_literal,
    is_to_device_call,
    keyword_arg,
    last_part,
    method_call,
    positional_args,
    string_value,
    target_names,
    tuple_elements,
    walk,
)

LOADER_NAME = re.compile(r"loader|(^|_)dl$|(^|_)iter$|^batches$", re.IGNORECASE)
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


Value = Union[Batch, Moved, Output]
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


# --- the pass ---------------------------------------------------------------------------------


class _FactsVisitor(cst.CSTVisitor):
    def __init__(self) -> None:
        self.module_scope = Scope("module", "<module>", None)
        self.scope = self.module_scope
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
            if isinstance(star, cst.Param):
                params.append(star.name.value)
        scope = Scope("function", node.name.value, self.scope, node, params=params)
        scope.uses_accelerator = any(p in ("accelerator", "fabric") for p in params)
        guarded = any(
            self._is_guard_test(d.decorator) or _is_unconditional_skip(d.decorator)
            for d in node.decorators
        )
        self.guarding_ifs.append(node if guarded else None)
        self.guard_depth += guarded
        if self.scope.kind == "module":
            self.functions[node.name.value] = FunctionInfo(node.name.value, scope)
        self._push(scope)
        self.states.append({})  # a function body starts with no batch in flight
        self.block_guards.append(False)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.guard_depth -= self.guarding_ifs.pop() is not None
        self.states.pop()
        self.block_guards.pop()
        self._pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.assigned.add(node.name.value)
        self._push(Scope("class", node.name.value, self.scope, node))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._pop()

    def visit_Import(self, node: cst.Import) -> None:
        self._note_import()
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            if isinstance(bound, cst.Name):
                self.scope.assigned.add(bound.value)
                self.torch_imported |= bound.value == "torch" and alias.asname is None

    def _note_import(self) -> None:
        if self.scope is self.module_scope and not self.guarding_ifs and self.statement is not None:
            if id(self.statement) in self.module_body_ids:
                self.last_import = self.statement

    def visit_Module(self, node: cst.Module) -> None:
        self.module_body_ids = {id(statement) for statement in node.body}

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._note_import()
        module = dotted(node.module) if node.module is not None else None
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            if isinstance(bound, cst.Name):
                self.scope.assigned.add(bound.value)
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
            if isinstance(sub, cst.Call) and last_part(dotted(sub.func)) in AVAILABILITY_CALLS:
                return True
            key = dotted(sub) if isinstance(sub, (cst.Name, cst.Attribute)) else None
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
        while isinstance(chain, cst.If):
            tests.append(chain.test)
            if isinstance(chain.orelse, cst.If):
                self.elif_nodes.add(id(chain.orelse))
            chain = chain.orelse
        if any(self._is_guard_test(t) for t in tests):
            self.guard_depth += 1
            self.guarding_ifs.append(node)

    def leave_If(self, original_node: cst.If) -> None:
        if self.guarding_ifs and self.guarding_ifs[-1] is original_node:
            self.guarding_ifs.pop()
            self.guard_depth -= 1
            test = original_node.test
            if original_node.orelse is None and _exits(original_node.body) and self._is_availability_test(test):
                # `if not torch.cuda.is_available(): sys.exit(...)`: the rest of the block
                # only runs with CUDA.
                self.block_guards[-1] = True

    def visit_Assert(self, node: cst.Assert) -> None:
        if self._is_availability_test(node.test):
            self.block_guards[-1] = True

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.block_guards.append(False)

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        self.block_guards.pop()

    def visit_IfExp(self, node: cst.IfExp) -> None:
        # `'cuda:1' if a else 'cuda:0'` has no CPU arm: it is no fallback.
        self.ifexps.append(not (is_cuda_literal(node.body) and is_cuda_literal(node.orelse)))

    def leave_IfExp(self, original_node: cst.IfExp) -> None:
        self.ifexps.pop()

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

    def _device_position(self, expr: cst.BaseExpression, kind: str) -> None:
        """Record the CUDA literals an expression in a device position may evaluate to."""
        literals = _cuda_arms(expr)
        if literals is None:
            return
        fallback = isinstance(expr, cst.IfExp) and not all(lit for _, lit in literals)
        for node, is_cuda in literals:
            if is_cuda:
                self._cuda_literal(node, kind, fallback, in_conditional=node is not expr)

    # loops

    def visit_For(self, node: cst.For) -> None:
        self._bind_targets(node.target)
        self.scope.move_frames.append({})
        sources, skip_first = _loop_sources(node.iter)
        if not sources:
            # `for key in batch.keys(): batch[key] = batch[key].to(device)` moves the batch
            # for the rest of the iteration: share the state rather than copy it.
            self.states.append(self.states[-1] if self.states else {})
            return
        names = target_names(node.target)
        if skip_first and isinstance(node.target, cst.Tuple):
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

    def visit_While(self, node: cst.While) -> None:
        self.scope.move_frames.append({})

    def leave_While(self, original_node: cst.While) -> None:
        self.scope.move_frames.pop()

    # bindings

    def _bind_targets(self, target: cst.BaseExpression) -> None:
        for name in target_names(target):
            if name is not None:
                self.scope.assigned.add(name)

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
                isinstance(target, cst.Name)
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

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_targets(node.target)

    def _record_binding(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        elements = tuple_elements(value)
        if isinstance(target, (cst.Subscript, cst.Attribute)):
            self._store_into(target, value)
        target_elems = tuple_elements(target) if isinstance(target, (cst.Tuple, cst.List)) else None
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
                    if isinstance(value, cst.Call):
                        self._home(key).unpacked_from[key] = value
            return
        key = dotted(target)
        if key is not None:
            self._bind_key(key, value, unpacked=False)

    def _bind_key(self, key: str, value: cst.BaseExpression, unpacked: bool) -> None:
        home = self._home(key)
        self.seq += 1
        home.events.setdefault(key, []).append((self.seq, _binding_kind(key, value), value))
        if contains_move(value):
            home.data_moves.add(key)
            if "." not in key:
                self.scope.move_frames[-1][key] = self.statement or value
        elif "." not in key:
            self.scope.forget_move(key)
        if _wraps_parallel(value):
            home.parallel.add(key)
        if not unpacked:
            self._classify_binding(home, key, value)
        if self.states and "." not in key:
            self._update_state(key, value, unpacked)

    def _classify_binding(self, home: Scope, key: str, value: cst.BaseExpression) -> None:
        if home is self.module_scope and _is_device_value(value):
            self.module_devices.setdefault(key, value)
        if _builds_loss(value, self.functional_imports):
            home.losses.add(key)
        if isinstance(value, cst.Call):
            callee = last_part(dotted(value.func))
            if "loader" in callee.lower() or (callee in LOOP_WRAPPERS and value.args):
                home.loaders[key] = value
            elif callee:
                home.datasets[key] = value
            if _is_prepare_call(value):
                home.prepared.add(key)
        if _mentions_availability(value):
            home.availability_flags.add(key)

    def _store_into(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """`batch[k] = batch[k].to(device)` moves the batch's entries in place."""
        root = target
        while isinstance(root, (cst.Subscript, cst.Attribute)):
            root = root.value
        if self.states and isinstance(root, cst.Name) and contains_move(value):
            if isinstance(self.states[-1].get(root.value), Batch):
                self.states[-1][root.value] = self.states[-1][BATCH_MOVED] = MOVED

    def _update_state(self, name: str, value: cst.BaseExpression, unpacked: bool) -> None:
        state = self.states[-1]
        new = value_of(value, state)
        if new is None and contains_move(value):
            new = MOVED
        if isinstance(new, Batch):
            plain = new.plain or unpacked or isinstance(value, cst.Subscript)
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
        if mc is None or not is_to_device_call(call):
            return
        key = dotted(mc[0])
        if key is None:
            return
        current = self.states[-1].get(key) if self.states else None
        if isinstance(current, Batch):
            if not current.plain:
                self.states[-1][key] = self.states[-1][BATCH_MOVED] = MOVED
            return  # a tensor's `.to` returns a copy: the bare statement moves nothing
        self.seq += 1
        self._home(key).events.setdefault(key, []).append((self.seq, "move", call))

    # calls

    def visit_Call(self, node: cst.Call) -> None:
        self._note_cuda_literals(node)
        self.seq += 1
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
                assert isinstance(node.func, cst.Attribute)
                self._cuda_literal(node.func.attr, ".cuda", call=node)
        for name in ("device", "map_location"):
            arg = keyword_arg(node, name)
            if arg is not None:
                self._device_position(arg.value, f"{name}=")


def value_of(expr: cst.CSTNode, state: dict[str, Value]) -> Optional[Value]:
    """What a loop-body expression holds, as far as devices go; None when it is unrelated."""
    if isinstance(expr, cst.Name):
        return state.get(expr.value)
    if isinstance(expr, cst.Attribute):
        base = value_of(expr.value, state)
        if expr.attr.value in ("device", "shape", "dtype", "is_cuda"):
            return None
        return base if isinstance(base, (Batch, Output)) else None
    if isinstance(expr, cst.Subscript):
        return value_of(expr.value, state)
    if isinstance(expr, cst.Call):
        return _value_of_call(expr, state)
    if isinstance(expr, cst.BinaryOperation):
        left = value_of(expr.left, state)
        return left if left is not None else value_of(expr.right, state)
    if isinstance(expr, cst.UnaryOperation):
        return value_of(expr.expression, state)
    return None


def batch_path(expr: cst.CSTNode) -> str:
    """`batch[0]` and `batch[1]` are two tensors; `x.view(-1)` and `x` are one."""
    while True:
        if isinstance(expr, (cst.Subscript, cst.Attribute)):
            return cst.Module([]).code_for_node(expr)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
            expr = expr.func.value
        elif isinstance(expr, (cst.BinaryOperation,)):
            expr = expr.left
        else:
            return cst.Module([]).code_for_node(expr)


def _value_of_call(call: cst.Call, state: dict[str, Value]) -> Optional[Value]:
    if is_to_device_call(call) or has_device_argument(call):
        return MOVED
    mc = method_call(call)
    if mc is not None:
        receiver, method = mc
        if method in HOST_METHODS:
            return None
        if method in DEVICE_PRESERVING_METHODS:
            base = value_of(receiver, state)
            if base is not None:
                return base
    callee = dotted(call.func)
    return Output(callee) if callee is not None else None


# --- helpers of the pass ----------------------------------------------------------------------


def _loop_sources(iterable: cst.BaseExpression) -> tuple[list[cst.BaseExpression], bool]:
    """The loader-like iterables of a `for`, unwrapped from enumerate/tqdm/zip.

    Returns (sources, skip_first): skip_first when `enumerate` puts an index first.
    """
    skip_first = False
    expr = iterable
    while isinstance(expr, cst.Call):
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
    if isinstance(expr, cst.Subscript):
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
    small = last.body if isinstance(last, cst.SimpleStatementLine) else [last]
    if isinstance(body, cst.SimpleStatementSuite):
        small = body.body
    for stmt in small:
        if isinstance(stmt, (cst.Raise, cst.Return)):
            return True
        if isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Call):
            if dotted(stmt.value.func) in EXITS:
                return True
    return False


def _is_unconditional_skip(decorator: cst.BaseExpression) -> bool:
    """`@pytest.mark.skip(...)`, `@unittest.skip(...)`: the body never runs."""
    func = decorator.func if isinstance(decorator, cst.Call) else decorator
    return last_part(dotted(func)) == "skip"


def _cuda_arms(expr: cst.BaseExpression) -> Optional[list[tuple[cst.CSTNode, bool]]]:
    """The string arms of a literal or conditional expression, each with is-it-CUDA."""
    if isinstance(expr, cst.IfExp):
        body, orelse = _cuda_arms(expr.body), _cuda_arms(expr.orelse)
        if body is None and orelse is None:
            return None
        return (body or [(expr.body, False)]) + (orelse or [(expr.orelse, False)])
    if string_value(expr) is not None:
        return [(expr, is_cuda_literal(expr))]
    return None


def _is_device_value(value: cst.BaseExpression) -> bool:
    """`torch.device(...)`, `'cuda' if ... else 'cpu'`, `accelerator.device`."""
    if isinstance(value, cst.Call):
        return dotted(value.func) == "torch.device"
    if isinstance(value, cst.IfExp):
        return string_value(value.body) is not None or isinstance(value.body, cst.Call)
    if isinstance(value, cst.Attribute):
        return value.attr.value == "device"
    return False


def _binding_kind(key: str, value: cst.BaseExpression) -> str:
    """What `key = value` does to where `key` lives: move, keep (a wrapper of itself), rebind."""
    if is_to_device_call(value):
        return "move"
    if isinstance(value, cst.Call):
        for arg in value.args:
            if dotted(arg.value) == key:
                return "keep"  # DataParallel(model), torch.compile(model), prepare(model)
    return "rebind"


def _names_a_device(name: str) -> bool:
    lowered = name.lower()
    return "device" in lowered and "type" not in lowered or lowered == "dev"


def _is_prepare_call(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Call) and last_part(dotted(value.func)) in (
        "prepare", "setup_dataloaders"
    )


def _wraps_parallel(value: cst.BaseExpression) -> bool:
    for sub in walk(value):
        if isinstance(sub, cst.Call) and last_part(dotted(sub.func)) in PARALLEL_WRAPPERS:
            return True
    return False


def _builds_loss(value: cst.BaseExpression, functional_imports: set[str]) -> bool:
    key = dotted(value)
    if key is not None and _is_functional_loss(key, functional_imports):
        return True  # `loss_fn = F.cross_entropy`
    for sub in walk(value):
        if isinstance(sub, cst.Call) and last_part(dotted(sub.func)).endswith("Loss"):
            return True
    return False


def _is_functional_loss(key: str, functional_imports: set[str]) -> bool:
    if key in functional_imports:
        return True
    return last_part(key) in FUNCTIONAL_LOSSES and key.startswith(FUNCTIONAL_PREFIXES)


def _mentions_availability(value: cst.BaseExpression) -> bool:
    for sub in walk(value):
        if isinstance(sub, cst.Call) and last_part(dotted(sub.func)) in AVAILABILITY_CALLS:
            return True
    return False


# --- the facts the rules query ----------------------------------------------------------------


class Facts:
    """The shared facts of one module, built by one pass."""

    def __init__(self, module: cst.Module) -> None:
        visitor = _FactsVisitor()
        module.visit(visitor)
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
        if isinstance(expr, cst.Subscript):
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
        assert isinstance(call, cst.Call)
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
        if not isinstance(expr, cst.Call):
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
                if not cpu_loops[id(loop)]:
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
            isinstance(arg, cst.Subscript)
            and any(string_value(e.slice.value) is not None for e in arg.slice
                    if isinstance(e.slice, cst.Index))
        )
        return UnmovedUse(kind, event.call, event.callee, arg, batch, model, early, dict_like)
