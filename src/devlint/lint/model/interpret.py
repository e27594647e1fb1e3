"""The statement interpreter: runs a module's code over abstract values.

- Branches run from the same state and join, whatever their order; a condition about the
  device (`torch.cuda.is_available()`, `args.cuda`) picks its arm in each world.
- Loops run until their state is stable, so iteration n meets iteration n + 1; only the pass
  over the stable state records observations.
- `return`, `raise`, `break`, `continue` and exits end their path; `sys.exit()` without a GPU
  ends the CPU world's path, so what follows requires CUDA.
- Functions are interpreted where they are called, with the values they are given (the result
  is kept per function and arguments, so a second call with the same values costs nothing).
  Functions nobody in the file calls run once on their own, with unknown arguments, after the
  module; a method starts from the object its class's `__init__` (and a test's `setUp`) builds,
  never from another method's leftovers. `forward` of a module class nobody calls runs with the
  module and its inputs on the device, marked as assumed.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from typing import Any, Iterator, Optional

import libcst as cst

from devlint.lint.model import conventions as names
from devlint.lint.model import torch_api as api
from devlint.lint.model.evaluate import (
    NONE, UNKNOWN_CLASS, Evaluator, gpu_device_ids, gpu_only_specs, hand_set_switch, holds_nothing,
    host_input, literal_value, not_a_tensor, tensor_kinds, trainer_class)
from devlint.lint.model.liveness import dead_nodes, identifier_counts
from devlint.lint.model.summaries import absolute, record_elsewhere
from devlint.lint.model.undefined import raising_statements
from devlint.lint.model.observations import CLOCK, Event, ModuleContainer, Observations, observed_nodes
from devlint.lint.model.state import (
    ClassInfo, Frame, FuncInfo, LoopFrame, LoopInfo, State, common_past, device_string, join_states,
    state_calls,
)
from devlint.lint.model.values import (
    OPAQUE, Device, Flag, Func, Instance, Iterable, Klass, Lazy, Maybe, Method, Module, Namespace,
    Opaque, Place, ProjectModule, Ref, Scalar, Seq, Tensor, Value, join, unwrap,
)
from devlint.lint.syntax import contains_move, dotted, is_main_test, is_none_literal, last_part, string_value, walk

MAX_LOOP_PASSES = 4  # then what still changes becomes unknown
# What a call the limits stopped returns: unknown, and known by no name (`dtype, device =
# explicit_default_types(...)` past the budget is no device by the name it is bound to).
REFUSED = Opaque("<not followed>")
UNPACKED = Opaque("<unpacked>")
# What a function must mention to observe anything when run alone (see `may_observe`).
RELEVANT_NAMES = frozenset({"to", "cpu", "load", "save", "numpy", "Variable", "prepare",
                            "set_device", "init_process_group", "DataParallel", "register_buffer",
                            "ModuleList", "ModuleDict", "Parameter", "DataLoader"})
MAX_BOUND_NAMES = 2000  # names in scope past which a node's bound names are not kept
RELEVANT_PARTS = ("cuda", "device", "gpu", "loader", "batch", "model", "net", "criterion", "loss",
                  "mps", "xla", "accelerat", "fabric", "encoder", "decoder", "discriminator",
                  "backbone", "classifier", "policy", "critic")
MAX_DEPTH = 8  # calls inside calls
RESETS = frozenset({"reset_parameters", "_reset_parameters"})  # build a module's state (DEV010)
MAX_CALLS = 4000  # interpreted calls per file: a generated file cannot stall the run
# Calls into another file's code: what they return and whether they need a GPU is what the
# importer wants (a batch helper, an `init_distributed_mode`); the project's deep builders are
# not, and interpreting them from every importer made project mode 2.6x a per-file run.
MAX_FOREIGN_DEPTH = 2
_CPU_WORLD_WORDS = re.compile(rb"cuda|load\(")
MAX_FOREIGN_CALLS = 200  # per file


def _placeholder(value: Tensor) -> bool:
    """A tensor that holds no data yet: uninitialised memory (`torch.empty(1)`) or an empty
    tensor (`torch.tensor(())`, `torch.Tensor()`, `torch.zeros(0)`), a slot that code fills later."""
    node = value.node
    if type(node) is not cst.Call:
        return False
    name = (dotted(node.func) or "").rsplit(".", 1)[-1]
    if name in ("empty", "empty_like", "new_empty"):
        return True
    args = [a.value for a in node.args if a.keyword is None and not a.star]
    if name in ("tensor", "as_tensor") or (name.endswith("Tensor") and name[:1].isupper()):
        return not args or (type(args[0]) in (cst.Tuple, cst.List) and not args[0].elements)
    return name in ("zeros", "ones") and len(args) == 1 and type(args[0]) is cst.Integer and \
        args[0].value == "0"


def _filled_later(cls: ClassInfo, attr: str) -> bool:
    """A method of the class, or of a base, other than those that build it assigns `self.<attr>`
    where it runs on the device (`forward`), or with anything but a new CPU tensor (`self.prototypes
    = compute_prototypes(features, labels)` in `process_support_set`): what that method fills the
    placeholder with is where the code that reads it finds it."""
    for info in cls.mro():
        for statement in getattr(getattr(info.node, "body", None), "body", ()):
            if type(statement) is not cst.FunctionDef or statement.name.value == "__init__" or \
                    statement.name.value in RESETS:
                continue
            on_device = runs_on_device(statement.name.value)
            for sub in walk(statement.body):
                if type(sub) is cst.Assign and any(
                        dotted(t.target) == f"self.{attr}" for t in sub.targets) and \
                        (on_device or not _new_host_tensor(sub.value)):
                    return True
    return False


def _new_host_tensor(node: Any) -> bool:
    """`torch.zeros(n)`: a torch call that makes a tensor and names no device."""
    return type(node) is cst.Call and (dotted(node.func) or "").startswith("torch.") and \
        not any(a.keyword is not None and a.keyword.value == "device" for a in node.args)


def _index_put(owner: Value, key: Value, value: Value) -> bool:
    """`owner[key] = value` writes device values into a factory-made CPU tensor through a
    tensor index."""
    return type(owner) is Tensor and owner.why == "factory" and owner.plain and not owner.dict_like \
        and host_input(owner) and type(key) is Tensor and key.plain and not key.dict_like \
        and type(value) is Tensor and not value.scalar and value.place is Place.DEVICE


def _generation_hook(cls: ClassInfo) -> bool:
    """A subclass of transformers' `LogitsProcessor`, `LogitsWarper` or `StoppingCriteria`."""
    for base in cls.bases:
        if type(base) is Ref and base.qualname.startswith("transformers") and \
                base.qualname.rsplit(".", 1)[-1] in ("LogitsProcessor", "LogitsWarper", "StoppingCriteria"):
            return True
        if type(base) is Klass and _generation_hook(base.info):
            return True
    return False


def _has_cpu_arm(node: Any) -> bool:
    """A function that names the CPU or asks whether a GPU is there (`def pick_device(no_cuda,
    gpu): if no_cuda or not torch.cuda.is_available(): return torch.device("cpu")`): a GPU
    parameter is then its choice of GPU where one is, not a sign that it runs only on one."""
    for sub in walk(node):
        kind = type(sub)
        if kind is cst.Attribute and sub.attr.value in ("is_available", "device_count"):
            return True
        if kind is cst.SimpleString and string_value(sub) == "cpu":
            return True
    return False


def _past_raising(statements: Any, raising: frozenset) -> frozenset:
    """ids of the module-level statements no run reaches: those after a statement of the same
    block that raises `NameError` every time (`model.undefined`), in `if`, `else`, `with` and
    loop blocks at module level too."""
    found: set = set()
    stack = [list(statements)]
    while stack:
        block = stack.pop()
        dead = False
        for statement in block:
            if dead:
                found.add(id(statement))
                continue
            if id(statement) in raising:
                dead = True
                continue
            if type(statement) in (cst.If, cst.For, cst.While, cst.With):
                body = statement.body
                if type(body) is cst.IndentedBlock:
                    stack.append(list(body.body))
                orelse = getattr(statement, "orelse", None)
                if type(orelse) is cst.Else and type(orelse.body) is cst.IndentedBlock:
                    stack.append(list(orelse.body.body))
                elif type(orelse) is cst.If:
                    stack.append([orelse])
    return frozenset(found)


def _straight_lines(method: Any) -> Iterator:
    """The simple lines of `method`'s body that every run of it gets to: those before the
    first compound statement that may return, raise or yield (what follows may be skipped)."""
    if type(method.body) is not cst.IndentedBlock:
        return
    for statement in method.body.body:
        if type(statement) is not cst.SimpleStatementLine:
            if any(type(n) in (cst.Return, cst.Raise, cst.Yield) for n in walk(statement)):
                return
            continue
        yield statement


def _cuda_straight(method: Any) -> bool:
    """`method` calls `.cuda()` before anything may return or raise, outside any condition: a
    statement whose own value is (a chain through) `x.cuda(...)`, not one arm of `a if c else b`."""
    for statement in _straight_lines(method):
        for small in statement.body:
            value = getattr(small, "value", None) if type(small) in (
                cst.Expr, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Return) else None
            while type(value) in (cst.Call, cst.Attribute, cst.Subscript):
                if type(value) is cst.Call:
                    if type(value.func) is cst.Attribute and value.func.attr.value == "cuda":
                        return True
                    value = value.func
                else:
                    value = value.value
            if type(small) is cst.Raise:
                return False
    return False


def _one_gpu_unwrapped(joined: State, single: State) -> State:
    """`if torch.cuda.device_count() > 1: model = nn.DataParallel(model)`: on a machine with one
    GPU, a world as real as any, the model is the plain one, which does not scatter its inputs
    to the device. Where the one-GPU arm holds a plain module, the joined model moves no inputs."""
    if not single.live:
        return joined
    env = None
    for name, value in joined.env.items():
        if type(value) is Module and value.moves_inputs:
            plain = single.env.get(name)
            if type(plain) is Module and not plain.moves_inputs:
                env = dict(joined.env) if env is None else env
                env[name] = replace(value, moves_inputs=False)
    return joined if env is None else State(env, joined.accel, joined.cpu, joined.sure, joined.past)


def dataclass_fields(info: ClassInfo) -> Optional[list]:
    """The fields of a `@dataclass` class, in the order its generated `__init__` takes them
    (its bases' first); None for any other class."""
    if not _is_dataclass(info.node):
        return None
    fields: list = []
    for cls in reversed(info.mro()):
        if _is_dataclass(cls.node):
            fields += [name for name in _annotated_names(cls.node) if name not in fields]
    return fields


def _annotated_names(node: cst.ClassDef) -> Iterator[str]:
    """`x: int = 0` in a class body, in order, but for `ClassVar`s."""
    body = node.body.body if type(node.body) is cst.IndentedBlock else ()
    for statement in body:
        for small in statement.body if type(statement) is cst.SimpleStatementLine else ():
            if type(small) is cst.AnnAssign and type(small.target) is cst.Name and \
                    "ClassVar" not in (dotted(small.annotation.annotation) or ""):
                yield small.target.value


def _is_dataclass(node: Any) -> bool:
    return type(node) is cst.ClassDef and any(
        (dotted(d.decorator.func if type(d.decorator) is cst.Call else d.decorator) or "")
        .rsplit(".", 1)[-1] == "dataclass" for d in node.decorators)


def _stops_a_cpu_machine(spec: Any) -> bool:
    """A CUDA device a machine without a GPU reaches outside a test: what DEV001 asks of."""
    where = spec.where
    return where.cpu and not where.in_test and not where.self_test and not where.expect_raise \
        and (spec.device.cpu == "accel" or spec.kind == ".cuda(device)")


_BATCH_END = re.compile(r"on_(train|validation|test|predict)_batch_end$")


class Interpreter(Evaluator):
    def __init__(self, module: cst.Module, loader_prior: bool = True, test_file: bool = False,
                 path: str = "", summaries: Any = None, summarising: bool = False,
                 levels: int = 0, gpu_calls: Optional[bool] = None, notebook: bool = False) -> None:
        self.module = module
        # a notebook: nothing imports it, so its cells are every caller its functions have
        self.notebook = notebook
        # whether the text calls anything that needs a GPU (`gpu_calls_in`); None: not known
        self.gpu_calls = gpu_calls
        self.path = path
        self.summaries = summaries  # the project's module summaries, or None: imports unknown
        # how many imports deep summaries reach from here: 0, the project's imports are unknown
        self.levels = levels if summaries is not None else 0
        self.summarising = summarising  # only the module's own code runs; nothing is observed
        self.dependencies: set = set()  # (path, digest) of the project files this one used
        self.probes: set = set()  # how its imports resolved: what a cached result stands on
        # where this file's imports lead (`summaries.ModuleFiles`), or None: imports unknown
        self.files = summaries.files if path and summaries is not None and self.levels > 0 \
            else None
        self.run_starts: list = []  # the clock when the module's run and each lone run began
        self._loader_prior = loader_prior
        self._imported: Optional[frozenset] = None
        self._importers_known = False  # `importers()` found the project's import map
        self._host_saving: Optional[bool] = None
        self._names_accelerator: Optional[bool] = None
        self._default_elsewhere: Optional[bool] = None
        self._dead: Optional[frozenset] = None
        self._edits_sys_path: Optional[bool] = None
        self._raising: Optional[frozenset] = None
        self._cuda_extensions: Optional[frozenset] = None
        self.obs = Observations()
        self.frame = Frame(None)
        self.frames: list[Frame] = []
        self.module_env: dict = {}
        self.memo: dict = {}
        self.func_reads: dict = {}  # id of a function's info -> whether the CPU world named it
        # ids of the nodes that made devices bound to names (`device = torch.device("cuda")`):
        # read by a name at least once, and bound over before a read on some path
        self.devices_read: set = set()
        self.devices_unread: set = set()
        self.devices_overwritten: set = set()
        # devices bound to a local name of a function (`device = torch.device('cuda')` in
        # GCNNMatch's `model_testing`): one that nothing reads places nothing
        self.local_devices: set = set()
        self.functions: dict[int, FuncInfo] = {}
        self.classes: dict[int, ClassInfo] = {}
        self.analyzed: set[int] = set()
        self.bound_at: dict[int, frozenset] = {}
        self.loops: dict[int, LoopInfo] = {}
        self.early_moves: dict = {}  # (loop, name) -> the statement that moved it before the loop
        self.instances: dict = {}  # class -> the objects this file builds of it, joined
        self.rank_tests: dict = {}  # id(condition) -> whether it is about the rank
        self.autograd_contexts: dict = {}  # id(autograd Function class) -> the ClassInfo of its ctx
        self.autograd_saved: dict = {}  # ctx ident -> what forward saved for backward (a Seq)
        self.autograd_kept: dict = {}  # ctx ident -> {attr: value} forward set on ctx (`ctx.scale = t`)
        self.moved_classes: set = set()
        self._ran: dict = {}  # id(loop) -> (the loop, whether code after it proves it ran)
        self.moved_a_module = False  # the run has moved a module (or an object of unknown kind) to the device
        self._generates: Optional[bool] = None
        self._moved_closure: tuple = (-1, frozenset())  # (len(moved_classes), classes moved with them)
        self.collected: dict = {}  # (class, list attribute) -> what its methods appended to it
        self.hook_set: dict = {}  # (class, attribute) -> the plain tensor a framework hook set there
        self.container_nodes: dict = {}  # id of a plain list of submodules -> (class, attribute)
        self.made: list = []  # (id of a call that made a module, when), in the run's order
        self.memo_made: dict = {}  # a memo's key -> the modules its call made (made again on replay)
        self.statement: Optional[cst.SimpleStatementLine] = None
        self.discarding: Any = None
        self.rank_guard = self.expect_raise = self.no_grad = self.ifexp_depth = 0
        self.catching = 0  # inside `try` bodies whose handlers catch a failed CUDA call
        self.inert = 0  # >0 where a device expression places nothing (compared, printed, a key)
        self._node_sets: dict = {}
        self.guessing = 0  # >0 inside the arms of a condition devlint cannot evaluate (a possible guard)
        # >0 in the arm of a type test that holds for non-tensor input only (`if isinstance(Trf,
        # np.ndarray):`) of a value devlint does not know: the code's numpy path
        self.host_dispatch = 0
        self.stand_ins = 0  # >0 in an `__init__` run for an object built from unknown arguments
        self._given: dict = {}  # (class, __init__) -> parameters every construction passes
        self._calls_and_bases: Optional[tuple] = None  # (`calls_and_bases`, built on first use)
        self.loop_aliases: dict = {}  # a loop's target -> the names of the display it walks
        self.default_device: Optional[Device] = None
        self.layer_builds: list = []  # classes whose torch layer `__init__` runs their reset now
        self.default_device_set = False
        self.distributed = False
        self.visible_devices = False  # CUDA_VISIBLE_DEVICES: index 0 is each process's own GPU
        self.fallback = False  # the file chooses the CPU when no GPU is there
        # ... in its own code: not only in the code of another file that its run executes (an
        # imported detector's `if torch.cuda.is_available(): self.model.cuda()` is its own choice)
        self.own_fallback = False
        # its own code tests for a GPU before a CUDA call that places nothing (`if
        # torch.cuda.is_available(): torch.cuda.empty_cache()`): meant to run without one too
        self.cpu_aware = False
        # the run places something with a device it did not name (`x.to(self.device)`,
        # `device=args.device`): a choice made elsewhere, which its literals bypass
        self.given_device = False
        self.nccl_required = False
        self.cuda_kernels = False  # the file's run compiles a CUDA extension (see `builds_cuda`)
        self.exiting = False
        self.requires_cuda = False  # set by a torch.cuda call that needs a GPU, per statement
        self.type_error = False  # set by a call its callee's parameters cannot take, per statement
        # Blocks whose rest runs only on a GPU: the CPU world stopped at a statement of their own
        # (`assert torch.cuda.is_available()`, `torch.cuda.set_device(rank)`), not at a branch.
        self.gpu_only_rest = 0
        self.cuda_only_module = False  # the module imports a CUDA-only package
        self.gpu_only_module = False  # its module-level code ends with the CPU world stopped
        self.calls = 0
        self.depth = 0
        self.alone_depth: Optional[int] = None  # the depth of the function run on its own now
        self.filling = 0  # >0 in the arm of `if not os.path.exists(path):` (a file made if missing)
        self.foreign_depth = 0
        self.resolving: set = set()  # the `Lazy` names being read now: a re-export cycle stops
        self.foreign_calls = 0
        self.gpu_required: set = set()  # ids of nodes whose device literals GPU-only code needs
        # Another file's code run from here: its interpreters (for their trees and paths), and
        # for each node observed there, the call at this file's own line that reached it.
        self.foreign_owners: dict[int, Any] = {}
        self.reached: dict[int, Any] = {}
        # (path, name) of another file's top-level function, method (`Cls.name`) or class this
        # run entered -> where a path of the CPU world reached it before any crash: the name of
        # this file's function run on its own then, or None for the module's own code (empty:
        # only past a stop). What a helper module's own check asks (`reached_only_with_a_stop`).
        self.reach: dict[tuple, set] = {}
        self.alone_origin: Optional[str] = None  # that name, while one runs on its own
        self._top_names: Optional[dict] = None  # id(def node) -> its name (`top_names`)
        self.test_depth = int(test_file)  # a test pins devices on purpose
        self.self_test = 0  # inside a package module's `__main__` block (its author's self-test)
        self.self_test_nodes: set = set()  # ids of the nodes of such blocks
        self.test_file = test_file  # a module a test runner collects (`test_*.py`, `tests/`)
        self.group_arms: dict = {}  # id(arm of an `if`) -> whether it starts the process group

    # --- the program ------------------------------------------------------------------------

    def run(self) -> Observations:
        self.run_starts.append(next(CLOCK))
        # a Cog predictor the project deploys on a GPU machine (`workspace.deploy`): no machine
        # without a GPU runs the file, so the CPU world never reaches its code
        st = State({}, cpu=not self.gpu_deployment() and not self.imported_only_with_gpu())
        self.module_env = st.env
        st = self.block(self.module.body, st)
        self.module_env = st.env if st.env else self.module_env
        self.gpu_only_module = st.accel and not st.cpu
        if not self.summarising:
            self.run_uncalled()
        if self.gpu_required:
            # literals that code running only with a GPU needs, found in a callee's frame
            # (`x.cuda()` handed through a wrapper to an NCCL all-reduce)
            self.obs.devices[:] = gpu_only_specs(self.obs.devices, self.gpu_required)
        return self.obs

    def run_uncalled(self) -> None:
        """Functions and methods no code of this file called: once each, on their own."""
        placed = self.placed_globals()
        # A private helper (`_attention(q, k, v)`) is called by this file's code: its callers'
        # arguments decide its paths (`is_causal` left at False), so it runs alone only if no
        # run of a public function or method reached it.
        functions = [info for info in sorted(self.functions.values(), key=lambda info: _private(info.name))
                     if id(info) not in self.analyzed and info.node is not None and
                     type(info.node) is not cst.Lambda and not info.never_runs and
                     not _phase_never_run(info) and self.may_observe(info, placed)]
        if functions:
            # code of an application that nothing reaches: no other file names it, and no
            # live code of this one (`workspace.liveness`, `model.liveness`)
            dead = self.dead_definitions()
            functions = [info for info in functions if id(info.node) not in dead]
        # Callers first: a helper another of them calls (`train_one_epoch(model, ...)` from
        # `main`, which wraps the model in DDP) gets its arguments from that call, and runs
        # alone only if no caller's run reached it.
        called = _called_by_others(functions)
        used = None
        for info in sorted(functions, key=lambda info: id(info) in called):
            if id(info) in self.analyzed:
                continue
            if info.cls is None and (_private(info.name) or self.notebook):
                # `def _encode(...)` that no code of the file names again: a private helper
                # nothing calls is dead code, no path a run can follow; so is a notebook's
                # helper that no cell names (`def load_checkpoint(...)` kept for later, while
                # the notebook trains from scratch): nothing can import a notebook
                used = identifier_counts(self.module) if used is None else used
                if used.get(info.name, 0) < 2:
                    continue
            self.run_alone(info)

    def raising(self) -> frozenset:
        """ids of the statements of this module (in its functions and at its module level) that
        raise `NameError` whenever they run (`model.undefined`); none in a notebook, whose
        kernel holds names no cell binds."""
        if self._raising is None:
            self._raising = frozenset() if self.notebook else raising_statements(
                self.module, self.star_names, program=self.reads_command_line())
        return self._raising

    def star_names(self, node: cst.ImportFrom) -> Optional[frozenset]:
        """The public names `from module import *` binds where `module` is a project file
        whose names its text shows (`Summaries.binds`: no star import of its own, no module
        `__getattr__`); None elsewhere."""
        if self.files is None:
            return None
        module = dotted(node.module) if node.module is not None else ""
        source = self.project_module(module, len(node.relative))
        if source is None or not source.path.endswith(".py"):
            return None
        names, files = self.summaries.binds(source.path)
        self.dependencies.update(files)
        return None if names is None else frozenset(name for name in names if not name.startswith("_"))

    def dead_definitions(self) -> frozenset:
        """ids of the function and class nodes of this module's top-level definitions that no
        run reaches (`model.liveness`): an application's code that no other file names and no
        live code here names. Empty where that is unknown: no project, a package others
        install, a notebook or a test (a runner collects its functions by their names)."""
        if self._dead is None:
            self._dead = frozenset()
            if self.files is not None and not self.summarising and not self.notebook and \
                    not self.test_file and self.path.endswith(".py"):
                unnamed = self.files.unnamed_elsewhere(self.path)
                if unnamed is not None:
                    self.probes.add(("unnamed_elsewhere", self.path, unnamed))
                    if unnamed:
                        self._dead = dead_nodes(self.module, frozenset(unnamed),
                                                _past_raising(self.module.body, self.raising()))
        return self._dead

    def placed_globals(self) -> frozenset:
        """Module-level names holding something on the device, a device, a loader or a model."""
        return frozenset(name for name, value in self.module_env.items()
                         if type(unwrap(value)) in (Module, Device, Iterable)
                         or (type(unwrap(value)) is Tensor and unwrap(value).place is Place.DEVICE))

    def may_observe(self, info: FuncInfo, placed: frozenset) -> bool:
        """Whether a function run on its own, with unknown arguments, can observe anything: it
        names a device, a move, a loader, a model or a checkpoint (or a global holding one), or
        is `forward` of a module. Library files are mostly functions that do none of this; they
        are read, not run (three quarters of the interpreter's time on the torch tree)."""
        if info.cls is not None and (runs_on_device(info.name) or
                                     (info.name == "__init__" and info.cls.is_module)):
            return True  # `__init__` of a module: its containers and plain tensors (DEV009/10)
        if _framework_hook(info) or (info.cls is not None and info.cls.callback and
                                     api.FRAMEWORK_HOOKS.match(info.name)):
            return True  # `on_validation_epoch_end`, `setup`: the trainer runs them
        if info.cls is not None and info.name == "__call__" and _generation_hook(info.cls):
            return True  # `generate` runs a logits processor on the device's scores
        for word in _identifiers(info.node):
            if word in placed or word in RELEVANT_NAMES:
                return True
            lowered = word.lower()
            if any(part in lowered for part in RELEVANT_PARTS):
                return True
        return False

    def run_alone(self, info: FuncInfo) -> None:
        devices, loads = len(self.obs.devices), len(self.obs.loads)
        origin, self.alone_origin = self.alone_origin, self.top_names().get(id(info.node))
        try:
            self._run_alone(info)
        finally:
            self.alone_origin = origin
        # What a machine without a GPU would trip on here (DEV001, DEV008), in a function the
        # project's own scripts reach only past a stop or only with a GPU: their runs are every
        # caller it has, so no such machine gets here. The root cause is theirs.
        if (any(_stops_a_cpu_machine(spec) for spec in self.obs.devices[devices:]) or any(
                load.where.cpu and not load.map_location and load.tensors
                for load in self.obs.loads[loads:])) and \
                self.reached_only_with_a_stop(info):
            self.obs.devices[devices:] = [
                replace(spec, where=replace(spec.where, cpu=False)) if spec.where.cpu else spec
                for spec in self.obs.devices[devices:]]
            self.obs.loads[loads:] = [
                replace(load, where=replace(load.where, cpu=False)) if load.where.cpu else load
                for load in self.obs.loads[loads:]]

    def reached_only_with_a_stop(self, info: FuncInfo) -> bool:
        """Whether this file's importers' runs reach the function `info` (its class, for a
        method: no object of it exists otherwise) only where the CPU world has stopped (past an
        unguarded CUDA placement that raised, or behind a GPU test), following
        `summaries.REACH_LEVELS` importers up (`Summaries.stopped_before`)."""
        if self.summarising or self.notebook or self.summaries is None or not self.path:
            return False
        name = self.top_names().get(id(info.node))
        if name is None:
            return False
        found, files, probes = self.summaries.stopped_before(
            absolute(self.path), name, info.cls.name if info.cls is not None else None)
        record_elsewhere(files, probes)
        return found

    def _run_alone(self, info: FuncInfo) -> None:
        self.run_starts.append(next(CLOCK))
        # A module-level function the file names only where the CPU world never gets (handed to
        # `pool.map` past `assert use_cuda`) runs only on a machine with a GPU.
        cpu = info.defined_cpu and (info.cls is not None or self.func_reads.get(id(info), True))
        st = State(dict(self.module_env), cpu=cpu)
        args: list = []
        if info.cls is not None and not info.static:
            frame = self.frame
            outer, frame.crash_here = frame.crash_here, None
            required, self.requires_cuda = self.requires_cuda, False
            try:
                receiver = self.receiver_for(info)
                crash, gpu_only = frame.crash_here, self.requires_cuda
            finally:
                frame.crash_here, self.requires_cuda = outer, required
            if receiver is None:
                return
            if gpu_only:
                # building the object stops a machine without a GPU (`GraphVAE.__init__` builds
                # another file's `GraphConv`, whose weight is made with `.cuda()`): no such
                # machine gets an object to run this method on
                st = State(st.env, st.accel, False)
            elif crash is not None and cpu:
                # `__init__` raised on every CPU path (a `.cuda()` of its own): the method runs
                # without a GPU only past that crash
                st = State(st.env, st.accel, st.cpu, st.sure, crash)
            args.append(receiver)
        for name, kind, default, annotation in info.params[len(args):]:
            args.append(self.parameter_value(info, name, annotation))
        self.alone_depth = self.depth + 1
        try:
            _, after = self.call_function(Func(info), args, {}, info.node, st, alone=True)
        finally:
            self.alone_depth = None
        if info.cls is not None and args and after is not None:
            self.note_collected(info.cls, args[0], after)

    def note_collected(self, cls: ClassInfo, before: Value, after: Value) -> None:
        """A list attribute a method appended to (`self.outputs.append(out)` in a step): what
        it collects, which another method run on its own (an epoch-end hook) reads. And a plain
        tensor a framework hook set (`self.confusion = torch.zeros(...)` in
        `on_validation_epoch_start`), which the steps the trainer runs after it read."""
        if type(before) not in (Module, Instance) or type(after) not in (Module, Instance):
            return
        for attr, value in after.attrs:
            value, old = unwrap(value), before.attr(attr)
            if type(value) is Tensor and value.why == "attr" and old is None and cls.framework:
                self.hook_set[(id(cls), attr)] = value
            if type(value) is Seq and value.items is None and type(old) is Seq and old.items == ():
                key = (id(cls), attr)
                known = self.collected.get(key)
                self.collected[key] = value.element if known is None else join(known, value.element)

    def with_collected(self, cls: ClassInfo, obj: Value) -> Value:
        """`obj` with its empty list attributes holding what other methods appended to them,
        and the plain tensors framework hooks set on it."""
        for attr, value in getattr(obj, "attrs", ()):
            element = self.collected.get((id(cls), attr))
            if element is not None and type(value) is Seq and value.items == ():
                obj = obj.with_attr(attr, Seq(value.kind, None, element, node=value.node))
        if type(obj) in (Module, Instance):
            for (ident, attr), value in self.hook_set.items():
                if ident == id(cls) and obj.attr(attr) is None:
                    obj = obj.with_attr(attr, value)
        return obj

    def note_hook(self, hook: Value) -> None:
        """`layer.register_forward_hook(self._hook)`: the hook runs whenever that layer does, so
        what it assigns to `self` is not what `__init__` left there."""
        if type(hook) is Method and hook.func.info.cls is not None and hook.func.info.params:
            owner = hook.func.info.params[0][0]
            hook.func.info.cls.hook_written.update(_assigned_attributes(hook.func.info.node, owner))

    def receiver_for(self, info: FuncInfo) -> Optional[Value]:
        """`self` for a method run on its own: the object `__init__` (and `setUp`) builds; for
        `forward` of a module class, that module on the device."""
        cls = info.cls
        if info.classmethod:
            return Klass(cls)
        st = State(dict(self.module_env))
        built = self.instances.get(id(cls))
        # The objects this file builds, else one built from unknown arguments.
        obj = built if built is not None else self.construct(cls.node, cls, [], {}, st, unknown_args=True)
        if cls.is_test:
            setup = cls.lookup("setUp")
            if type(setup) is Func and setup.info is not info:
                _, after = self.call_function(setup, [obj], {}, cls.node, st)
                obj = after if after is not None else obj
        obj = self.with_collected(cls, obj)
        if type(obj) is Module and cls.framework and api.FRAMEWORK_HOOKS.match(info.name):
            # `on_validation_epoch_end`: the trainer moved the module before any hook of a run
            return replace(obj, place=Place.DEVICE, assumed=False, moves_inputs=True)
        if type(obj) is Module and runs_on_device(info.name):
            observed = self.moved_class(cls) or cls.framework
            if not observed and self.names_no_accelerator():
                return replace(obj, place=Place.UNKNOWN)  # a project that never uses a GPU
            return replace(obj, place=Place.DEVICE, assumed=not observed,
                           moves_inputs=cls.framework)
        if type(obj) is Module:
            return replace(obj, place=Place.UNKNOWN)
        return obj

    def moved_class(self, cls: ClassInfo) -> bool:
        """The file moves objects of `cls`, or of a module class whose `__init__` builds them:
        a module's move moves the submodules it built, in containers too."""
        if cls in self.moved_classes:
            return True
        known = self._moved_closure
        if known[0] != len(self.moved_classes):
            found = set(self.moved_classes)
            pending = list(found)
            while pending:
                for built in self.classes_built(pending.pop()):
                    if built not in found:
                        found.add(built)
                        pending.append(built)
            known = self._moved_closure = (len(self.moved_classes), found)
        return cls in known[1]

    def classes_built(self, cls: ClassInfo) -> Iterator[ClassInfo]:
        """The module classes of this file that `cls.__init__` calls by name."""
        init = cls.lookup("__init__")
        if type(init) is not Func:
            return
        for node in walk(init.info.node):
            if type(node) is cst.Call and type(node.func) is cst.Name:
                found = self.module_env.get(node.func.value)
                if type(found) is Klass and found.info.is_module:
                    yield found.info

    def generates_on_device(self) -> bool:
        """This file calls `generate` on a model it moved to the device."""
        if self._generates is None:
            self._generates = any(
                (type(t.after) is Module or type(t.after) is Tensor and not t.after.plain) and
                t.after.place is Place.DEVICE for t in self.obs.transfers) and any(
                type(sub) is cst.Call and type(sub.func) is cst.Attribute and sub.func.attr.value == "generate"
                for sub in walk(self.module))
        return self._generates

    def parameter_value(self, info: FuncInfo, name: str, annotation: Optional[str]) -> Value:
        """An argument nobody passed: unknown, except by the conventions of `conventions`."""
        hooked = trainer_hook_argument(info, name)
        if hooked is not None:
            return hooked
        cuda = parametrized_cuda(info, name)
        if cuda is not None:
            return Scalar(text=string_value(cuda), template=string_value(cuda), node=cuda)
        if annotation is not None and annotation.endswith("DataLoader"):
            return Iterable(Tensor(Place.HOST, "batch", None, plain=False), loader=True)
        if info.cls is not None and info.name == "__call__" and _generation_hook(info.cls) and \
                name in ("input_ids", "scores"):
            # transformers' `generate` calls a logits processor or a stopping criterion with
            # the token ids and scores where the model is: on the device, where this file
            # calls `generate` on a model it moved there
            return Tensor(Place.DEVICE, "input", info.node, plain=True,
                          assumed=not self.generates_on_device())
        if name == "batch" and info.cls is not None and info.cls.callback and api.FRAMEWORK_HOOKS.match(info.name):
            # `on_validation_batch_end(self, trainer, pl_module, outputs, batch, ...)`: the batch
            # the trainer moved to the module's device before the step
            return Tensor(Place.DEVICE, "input", info.node, plain=False)
        if name == "outputs" and info.cls is not None and info.cls.callback and \
                _BATCH_END.match(info.name):
            # `on_validation_batch_end(self, trainer, pl_module, outputs, ...)`: what the step
            # returned, computed on the module's device
            return Tensor(Place.DEVICE, "output", info.node, plain=False)
        if info.cls is not None and info.cls.callback and api.FRAMEWORK_HOOKS.match(info.name) and \
                len(info.params) > 2 and info.params[2][0] == name and not info.static:
            # `(self, trainer, pl_module, ...)`: the module the trainer runs, on its device
            return Module(Place.DEVICE, info.node, spelled=name)
        if info.cls is not None and runs_on_device(info.name) and info.cls.is_module and \
                not any(param == name and type(default) in (Flag, Scalar)
                        for param, _, default, _ in info.params):
            # (not `use_class_weights=False`: a switch, no tensor; nor `scale=1/4`,
            # `reduction="mean"`: a number or a string, no tensor)
            observed = self.moved_class(info.cls) or info.cls.framework
            if annotation is None or annotation.rsplit(".", 1)[-1] in api.TENSOR_ANNOTATIONS:
                # (in a project that never names an accelerator, where its module is: unknown)
                place = Place.UNKNOWN if not observed and self.names_no_accelerator() else Place.DEVICE
                return Tensor(place, "input", info.node, plain=info.name == "forward",
                              assumed=not observed)
        return Opaque(name, unseen_arg=True)

    # --- blocks and statements --------------------------------------------------------------

    def block(self, statements: Any, st: State) -> State:
        gpu_only = 0
        module_level = statements is self.module.body
        running = [statements, 0]
        blocks = self.frame.blocks
        blocks.append(running)
        try:
            for index, statement in enumerate(statements):
                if not st.live:
                    break
                running[1] = index
                cpu = st.cpu
                st = self.statement_(statement, st)
                if module_level and st.live:
                    # a join (after a module-level loop or `if`) makes a new namespace: the
                    # functions `main()` calls read the module's names as they now are
                    self.module_env = st.env
                if cpu and not st.cpu and st.accel and not gpu_only and \
                        type(statement) is cst.SimpleStatementLine:
                    gpu_only = 1
                    self.gpu_only_rest += 1
        finally:
            self.gpu_only_rest -= gpu_only
            blocks.pop()
        return st

    def suite(self, suite: Any, st: State) -> State:
        if type(suite) is cst.SimpleStatementSuite:
            # `for x in l: x = x.to(d)` has no line of its own for a fix to edit
            previous = self.statement
            st = self.line(suite.body, None, st)
            self.statement = previous
            return st
        return self.block(suite.body, st)

    def statement_(self, node: Any, st: State) -> State:
        if id(node) in self.raising():
            # it reads a name nothing in the file binds: `NameError` on every run, and no
            # path goes past it (`model.undefined`)
            return st.dead()
        kind = type(node)
        if kind is cst.SimpleStatementLine:
            st = self.line(node.body, node, st)
            self.statement = None
            return st
        handler = self._statements.get(kind)
        return handler(self, node, st) if handler is not None else st

    def line(self, statements: Any, line: Any, st: State) -> State:
        self.statement = line
        for small in statements:
            if not st.live:
                break
            st = self.small(small, st)
        return st

    def small(self, node: Any, st: State) -> State:
        self.requires_cuda = False
        self.type_error = False
        frame = self.frame
        frame.crash_here = None
        st = self.small_statement(node, st)
        crash, frame.crash_here = frame.crash_here, None
        if self.type_error:
            self.type_error = False
            return st.dead()  # TypeError on every machine (`evaluate._raises_type_error`)
        if self.requires_cuda:
            self.requires_cuda = False
            return State(st.env, st.accel, False)
        if crash is not None and st.cpu and st.past is None:
            # a machine without a GPU stopped at this statement's CUDA placement
            return State(st.env, st.accel, st.cpu, st.sure, crash)
        return st

    def small_statement(self, node: Any, st: State) -> State:
        kind = type(node)
        if kind is cst.Expr:
            return self.expression_statement(node, st)
        if kind is cst.Assign:
            value = self.eval(node.value, st)
            if len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
                # `use_cuda = True`, edited by hand like a command-line flag's default
                value = hand_set_switch(node.targets[0].target.value, node.value, value)
            for target in node.targets:
                self.bind(target.target, value, st, self.statement or node)
            if any(_picks_gpus(target.target, node.value) for target in node.targets):
                # `os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu`: the code picks the GPUs it
                # runs on, as `import setGPU` does; past it, only a machine with one runs on
                return State(st.env, st.accel, False)
            return st
        if kind is cst.AnnAssign:
            if node.value is not None:
                # `device: torch.device = torch.device("cuda")` in a class body is a field's
                # default: it places nothing until an object uses it (then that use is seen)
                field = self.frame.cls is not None
                self.inert += field
                value = self.eval(node.value, st)
                self.inert -= field
                self.bind(node.target, value, st, self.statement or node)
            return st
        if kind is cst.AugAssign:
            old = self.value(node.target, st)
            new = self.value(node.value, st)
            operator = _AUGMENTED.get(type(node.operator))
            if type(unwrap(old)) is Module and type(node.operator) is cst.AddAssign:
                value = unwrap(old)  # `self.blocks += [...]` extends an `nn.ModuleList` in place
            else:
                value = self.arithmetic(node, node.target, old, node.value, new, st, operator) \
                    if operator is not None else OPAQUE
            self.bind(node.target, value, st, self.statement or node)
            return st
        if kind is cst.Return:
            value = self.eval(node.value, st) if node.value is not None else NONE
            self.frame.returns.append((st.copy(), unwrap(value)))
            if node.value is not None:
                self.returned_from_forward(node.value, unwrap(value), st)
            return st.dead()
        if kind is cst.Raise:
            if node.exc is not None:
                self.eval(node.exc, st)
            return st.dead()
        if kind is cst.Assert:
            tested = self.value(node.test, st)
            test = self.truth(tested)
            guard = test.cpu is None and self.possible_guard(node.test, tested, st)
            return State(st.env, st.accel and test.accel is not False, st.cpu and test.cpu is not False,
                         st.sure and not guard)  # `assert lib.has_gpu()` may stop a CPU machine
        if kind is cst.Import:
            for alias in node.names:
                qualname = dotted(alias.name) or ""
                source = self.project_module(qualname)
                if alias.asname is not None:
                    st.env[alias.asname.name.value] = source or Ref(qualname)
                else:
                    root = qualname.split(".", 1)[0]
                    st.env[root] = (source if root == qualname else self.project_module(root)) or Ref(root)
                if source is not None and self.gpu_on_import(source.path):
                    st = State(st.env, st.accel, False)  # `import kernels`: built on import
                if source is None and self.missing_submodule(qualname):
                    return st.dead()
                if source is not None and self.relative_import_fails(qualname, source.path):
                    return st.dead()
            return self.imported([dotted(a.name) or "" for a in node.names], st)
        if kind is cst.ImportFrom:
            return self.import_from(node, st)
        if kind in (cst.Break, cst.Continue):
            if self.frame.loops:
                loop = self.frame.loops[-1]
                (loop.breaks if kind is cst.Break else loop.continues).append(st.copy())
            return st.dead()
        if kind is cst.Del:
            for target in _targets(node.target):
                if type(target) is cst.Name:
                    st.env.pop(target.value, None)
                elif type(target) is cst.Attribute and type(target.value) is cst.Name:
                    owner = unwrap(st.env.get(target.value.value, OPAQUE))
                    if type(owner) is Module and owner.cls is not None:
                        # `del self.x_proj` once its weights are stacked into one parameter: the
                        # plain list was a scaffold, and nothing of it is left unregistered
                        owner.cls.containers.pop(target.attr.value, None)
            return st
        return st

    def expression_statement(self, node: cst.Expr, st: State) -> State:
        value = node.value
        moved = value
        while type(moved) is cst.Call and type(moved.func) is cst.Attribute and \
                moved.func.attr.value in ("eval", "train") and not moved.args:
            # `self.model.to(device).eval()`: the move's result is thrown away as a whole, so
            # what moves is what moves in place (a module, a batch object)
            moved = moved.func.value
        if type(moved) is cst.Call and type(moved.func) is cst.Attribute and \
                moved.func.attr.value in ("to", "cuda", "cpu", "type"):
            self.discarding = moved
        self.exiting = False
        self.eval(value, st)
        self.discarding = None
        if type(value) is cst.Call:
            callee = self.value(value.func, st) if type(value.func) in (cst.Name, cst.Attribute) else None
            if self.exiting or (type(callee) is Ref and callee.qualname in api.EXITS):
                self.exiting = False
                return st.dead()
        return st

    def imported(self, modules: list, st: State) -> State:
        """Past an import of a CUDA-only package (TensorRT, Triton kernels), only a machine
        with a GPU runs on; Ray gives each worker its own GPU as device 0."""
        roots = {m.split(".", 1)[0] for m in modules}
        if roots & api.PER_PROCESS_GPU_PACKAGES:
            self.visible_devices = True
        if roots & api.CUDA_ONLY_PACKAGES or any(api.CUDA_EXTENSION_NAME.match(r) for r in roots) or \
                any(api.loads_extension(m, self.cuda_extensions(),
                                        lambda name: self.project_module(name) is not None)
                    for m in modules):
            if self.frame.function is None and self.frame.cls is None:
                self.cuda_only_module = True  # its functions are kernels or wrappers of them
            return State(st.env, st.accel, False)
        return st

    def import_from(self, node: cst.ImportFrom, st: State) -> State:
        module = dotted(node.module) if node.module is not None else ""
        if not node.relative:
            st = self.imported([module or ""], st)
        if node.relative:
            module = "." * len(node.relative) + (module or "")
        source = self.project_module(module.lstrip("."), len(node.relative)) if \
            self.files is not None else None
        if type(node.names) is cst.ImportStar:
            # Every public name of a project module, rebound in order as Python binds them:
            # a later `from local import *` overrides `device` from an earlier one.
            summary = self.summary_of(source.path) if source is not None else None
            for name, value in (summary.env.items() if summary is not None else ()):
                if not name.startswith("_"):
                    st.env[name] = value if type(value) is not Maybe else Ref(f"{module}.{name}")
            return st
        for alias in node.names:
            name = alias.name.value if type(alias.name) is cst.Name else dotted(alias.name) or ""
            bound = alias.asname.name.value if alias.asname is not None else name
            fallback = Ref(f"{module}.{name}" if module else name)
            if source is not None and self.summarising and source.path.endswith(".py"):
                st.env[bound] = Lazy(source.path, name, fallback, self.levels)
            else:
                st.env[bound] = self.module_member(source.path, name, fallback) if source is not None \
                    else fallback
        if source is not None and (self.gpu_on_import(source.path) or any(
                self.gpu_on_import(child) for child in self.submodules_named(node, source.path))):
            # `from src.model import GPT`, whose module compiles its CUDA kernels on import;
            # `from pointnet2.utils import pointnet2_utils`, a submodule that needs the
            # project's CUDA extension
            return State(st.env, st.accel, False)
        if source is None and not node.relative and self.missing_submodule(module):
            return st.dead()
        if source is not None and self.missing_name(node, source.path):
            return st.dead()
        if source is not None and not node.relative and self.relative_import_fails(module, source.path):
            return st.dead()
        return st

    def relative_import_fails(self, module: str, path: str) -> bool:
        """`from gnn_full import Net` in `model/debug_forward.py`, where `model/gnn_full.py`
        starts with `from .dyn_conv import GraphSAGEDynConv`: the script's folder is on
        sys.path, so the module is imported as a top-level module, and its relative import
        raises ImportError on every machine; no path goes past the import. Only where the file
        found is certain (`certain_import`), and not in a notebook."""
        if self.summarising or self.notebook or "." in module or not path.endswith(".py") or \
                path.endswith("__init__.py") or not self.certain_import(module, path):
            return False
        found, files = self.summaries.imports_relatively(path)
        self.dependencies.update(files)
        return found

    def missing_name(self, node: cst.ImportFrom, path: str) -> bool:
        """`from models import TrafficSeq2Seq` where the project's `models.py` beside the script
        (or the module a relative import names) binds no `TrafficSeq2Seq` on any path, and no
        submodule has that name: Python raises ImportError there, on every machine, so no
        path goes past the import. Only where the file found is certain: a relative import,
        or a module beside a file that edits no `sys.path`; not in a notebook (its kernel may
        hold another path), and not for a module that may bind names its text does not show."""
        import os

        if self.summarising or self.notebook or type(node.names) is cst.ImportStar or \
                not path.endswith(".py"):
            return False
        if not node.relative and not self.certain_import(dotted(node.module) or "", path):
            return False
        names, files = self.summaries.binds(path)
        self.dependencies.update(files)
        if names is None:
            return False
        for alias in node.names:
            name = alias.name.value if type(alias.name) is cst.Name else None
            if name is None or name in names:
                continue
            if path.endswith("__init__.py"):
                child = self.summaries.files.child(os.path.dirname(path), name)
                self.probes.add(("child", os.path.dirname(path), name, child))
                if child is not None:
                    continue
            return True
        return False

    def certain_import(self, module: str, path: str) -> bool:
        """Whether an absolute import surely finds the file at `path`: a module of the package
        the importer itself is in (`from second.pytorch.train import ...` in
        `second/pytorch/inference.py`: it finds that package's module, or no package at all), or
        a module beside an entry point whose own `sys.path` edits, if any, are all known and
        put no module of that name first (`python eval.py` puts its own folder first). A module
        beside a file the project imports is found beside it only when that file runs as a
        script; imported from elsewhere, the same name may find another file (CoAtNet's `from
        utils import ...` finds the root's `utils.py` then)."""
        import os

        here = os.path.dirname(os.path.abspath(self.path))
        parts = module.split(".")
        if len(parts) > 1:
            top = os.path.dirname(path) if not path.endswith("__init__.py") else os.path.dirname(os.path.dirname(path))
            for _ in parts[1:]:
                top = os.path.dirname(top)
            top = os.path.join(top, parts[0])
            return (here + os.sep).startswith(top + os.sep)
        if os.path.dirname(path) != here:
            return False
        if self.edits_sys_path():
            # (`sys.path.insert(0, ROOT)` of a folder computed from `__file__`: certain where
            # no folder the file puts there holds a module of that name)
            folders = self.files.sys_path_folders(self.path)
            self.probes.add(("sys_path_folders", self.path, folders))
            if folders is None:
                return False
            for folder in folders:
                folder = os.path.normpath(os.path.join(here, folder))
                child = self.files.child(folder, module)
                self.probes.add(("child", folder, module, child))
                if child is not None:
                    return False
        return not self.importers() and self._importers_known

    def edits_sys_path(self) -> bool:
        if self._edits_sys_path is None:
            self._edits_sys_path = any(
                type(n) is cst.Attribute and n.attr.value == "path" and type(n.value) is cst.Name and
                n.value.value == "sys" for n in walk(self.module))
        return self._edits_sys_path

    def missing_submodule(self, module: str) -> bool:
        """`import model.model` where the project's `model` package has no module `model`:
        Python finds the project's package first and raises ModuleNotFoundError, so no path goes
        past the import. Not in a notebook (its kernel may hold another path), and not for
        what a build makes (`_C`, `_ext`, `x_pb2`: compiled or generated next to the source),
        nor in a project with git submodules."""
        parts = module.split(".")
        if self.files is None or self.notebook or len(parts) < 2 or any(
                part.startswith("_") or part.endswith(("_pb2", "_pb2_grpc")) for part in parts[1:]):
            return False
        if self.project_module(parts[0]) is None:
            return False
        # (a project with git submodules: the missing module may be in one a clone left empty)
        submodules = self.files.git_submodules(self.path)
        self.probes.add(("git_submodules", self.path, submodules))
        return not submodules

    def submodules_named(self, node: cst.ImportFrom, path: str) -> list:
        """The project files `from package import a, b` imports as submodules of the package
        whose `__init__.py` is at `path` (`Summaries.submodule_files`)."""
        if self.summarising or self.files is None or type(node.names) is cst.ImportStar:
            return []
        names = [alias.name.value for alias in node.names if type(alias.name) is cst.Name]
        return self.summaries.submodule_files(path, names, self.probes)

    def gpu_on_import(self, path: str) -> bool:
        """Whether importing the project file at `path` needs a GPU (see
        `Summaries.gpu_on_import`), recorded as what this run stands on. Asked by a checked
        file only: a summary's importers ask through their own imports."""
        if self.summarising or not path.endswith(".py"):
            return False
        found, files, probes = self.summaries.gpu_on_import(path)
        self.dependencies.update(files)
        self.probes.update(probes)
        return found

    # --- the project's other files ----------------------------------------------------------

    def project_module(self, module: str, level: int = 0) -> Optional[ProjectModule]:
        """The project file (or namespace package) an import names, or None."""
        if self.files is None:
            return None
        found = self.files.resolve(self.path, module, level)
        self.probes.add(("import", self.path, module, level, found))
        return ProjectModule(found) if found is not None else None

    def summary_of(self, path: str):
        """The summary of the project file at `path` (None for a namespace package, or a file
        that does not parse or is too large), recorded as what this run stands on."""
        if not path.endswith(".py"):
            return None
        summary = self.summaries.get(path, self.levels - 1)
        if summary is None:  # unparsable or too large: unknown names
            self.dependencies.add((path, self.summaries.digests.get(path)))
            return None
        self.dependencies.update(summary.dependencies)
        self.probes.update(summary.probes)
        return summary

    def module_member(self, path: str, name: str, fallback: Value) -> Value:
        """`name` of the project module at `path`: what its summary binds, else its submodule,
        else `fallback` (unknown to devlint's tables as much as to the project)."""
        import os

        summary = self.summary_of(path)
        if summary is not None:
            found = self.resolved(summary.env.get(name))
            if found is not None and type(found) is not Maybe:
                return found
        base = os.path.dirname(path) if path.endswith("__init__.py") else path
        if not path.endswith(".py") or path.endswith("__init__.py"):
            child = self.summaries.files.child(base, name)
            self.probes.add(("child", base, name, child))
            if child is not None:
                return ProjectModule(child)
        return fallback

    def resolved(self, value: Optional[Value]) -> Optional[Value]:
        """A `Lazy` name read now, through its re-exports (`module_member` resolves the next
        one); a cycle of re-exports is unknown."""
        if type(value) is not Lazy:
            return value
        key = (value.path, value.name)
        if key in self.resolving:
            return value.fallback
        self.resolving.add(key)
        levels, self.levels = self.levels, value.levels  # as deep as its importer would read
        try:
            found = self.module_member(value.path, value.name, value.fallback)
        finally:
            self.levels = levels
            self.resolving.discard(key)
        return found

    # --- compound statements ----------------------------------------------------------------

    def if_(self, node: cst.If, st: State) -> State:
        own = self.frame.function is None and self.frame.cls is None and is_main_test(node.test) \
            and self.in_package()
        self.self_test += own
        if own:
            # its device literals are the author's choice wherever the package's code uses them
            self.self_test_nodes.update(id(n) for n in walk(node.body))
        try:
            return self._if(node, st)
        finally:
            self.self_test -= own

    def in_package(self) -> bool:
        """Whether the checked file is a module of a package (an `__init__.py` beside it, or in
        the folder above within the project: PIDNet's `models/pidnet/model_utils.py`), or one
        that files of other folders import (a script imported by the scripts beside it is
        still a script): it is imported, not run, and its `if __name__ == "__main__":` block
        is its author's self-test or demo, run by hand where the author works (DEV001 leaves
        its devices alone)."""
        import os

        if self.files is None:
            return False
        folder = os.path.dirname(os.path.abspath(self.path))
        inside = folder != os.path.abspath(self.files.project(self.path))
        for place in (folder, os.path.dirname(folder)) if inside else (folder,):
            found = self.files.child(place, "__init__")
            self.probes.add(("child", place, "__init__", found))
            if found is not None:
                # EpipolarPose's `refiner/main.py`, which parses its command line and which no
                # file imports: a script kept in a package folder, run as `python
                # refiner/main.py --exp ...`; its `__main__` block is the program
                return not (self.reads_command_line() and not self.importers() and self._importers_known)
        return any(os.path.dirname(os.path.abspath(p)) != folder for p in self.importers())

    def reads_command_line(self) -> bool:
        """Whether the module's code parses its command line (`parser.parse_args()`,
        `parse_known_args()`) or reads `sys.argv`: what a program does, not a module."""
        for node in walk(self.module):
            if type(node) is cst.Attribute and node.attr.value in ("parse_args", "parse_known_args", "argv") \
                    and (node.attr.value != "argv" or dotted(node) == "sys.argv"):
                return True
        return False

    def starts_process_group(self, arm: Any, st: State) -> bool:
        """Whether an arm of an `if` starts the process group: it calls
        `init_process_group`, or a function of the file or project whose own body does
        (`init_dist(opt, local_rank)`)."""
        known = self.group_arms.get(id(arm))
        if known is None:
            known = False
            # the arm's own simple statements: a nested `if` (an `elif` ladder) decides for
            # itself, and each statement is read once, not once per `if` around it
            suite = arm.body if type(arm) is cst.Else else arm
            if type(suite) is cst.SimpleStatementSuite:
                lines = [suite]
            elif type(suite) is cst.IndentedBlock:
                lines = [line for line in suite.body if type(line) is cst.SimpleStatementLine]
            else:
                lines = []  # an `elif`
            for sub in (node for line in lines for node in walk(line)):
                if type(sub) is not cst.Call:
                    continue
                name = dotted(sub.func) or ""
                held = unwrap(self.lookup(name, st)) if name and "." not in name else None
                helper = held.info.node if type(held) is Func else None
                if _starts_group(sub) or (type(helper) is cst.FunctionDef and
                                          any(_starts_group(c) for c in walk(helper.body))):
                    known = True
                    break
            self.group_arms[id(arm)] = known
        return known

    def _if(self, node: cst.If, st: State) -> State:
        tested = self.value(node.test, st)
        test = self.truth(tested)
        rank = self.rank_test(node.test)
        # `if rank == 0:` chooses per rank in both arms; `if args.distributed:` (a switch) has
        # its processes in the first arm and one process in the other, where a fixed GPU is fine
        multi = _distributed_switch(node.test) if rank else None
        guard_body, guard_else = rank and multi is not True, rank and multi is not False
        if not rank and node.orelse is not None:
            # `if len(gpu_ids) == 1: set_device(0) else: init_dist(opt, local_rank)`: the arm
            # beside the one that starts the process group is the job's single process
            starts = self.starts_process_group(node.body, st), self.starts_process_group(node.orelse, st)
            guard_body, guard_else = starts[1] and not starts[0], starts[0] and not starts[1]
        self.rank_guard += guard_body
        # A condition devlint cannot evaluate in the CPU world is a possible guard: what either
        # arm does is not what a machine without a GPU surely does.
        unknown = test.cpu is None and self.possible_guard(node.test, tested, st)
        self.guessing += unknown
        entry = st.copy(accel=st.accel and test.accel is not False, cpu=st.cpu and test.cpu is not False)
        other = st.copy(accel=st.accel and test.accel is not True, cpu=st.cpu and test.cpu is not True)
        key = test_key(node.test) if test.cpu is None and not unknown else None
        if key is not None and key[0] in self.frame.crashed_tests:
            # `if self.relation_layers_num != 0:` again: the CPU world's path that crashed in
            # that arm the first time is the one that takes it now
            arm, past, _ = self.frame.crashed_tests[key[0]]
            if past is None:  # no CPU path came through that arm
                if arm:
                    entry = entry.copy(cpu=False)
                else:
                    other = other.copy(cpu=False)
            else:
                taking = entry if arm else other
                if taking.cpu and taking.past is None:
                    taking.past = past
        self.narrow(node.test, entry, other)
        host_arm = self.host_type_test(node.test, st) if test.accel is None else None
        self.host_dispatch += host_arm is True
        missing = _tests_missing_file(node.test)
        self.filling += missing
        body = self.suite(node.body, entry)
        self.filling -= missing
        self.host_dispatch -= host_arm is True
        self.rank_guard += guard_else - guard_body
        self.host_dispatch += host_arm is False
        if node.orelse is None:
            orelse = other
        elif type(node.orelse) is cst.If:
            orelse = self._if(node.orelse, other) if other.live else other
        else:
            orelse = self.suite(node.orelse.body, other) if other.live else other
        self.host_dispatch -= host_arm is False
        self.guessing -= unknown
        self.rank_guard -= guard_else  # as it was before the `if`
        if key is not None and st.cpu and st.past is None:
            # one arm's CPU paths crashed (`past`) or ended (a GPU requirement, a `return`),
            # the other's came through
            ended = [not arm.cpu or arm.past is not None for arm in (body, orelse)]
            if ended[0] != ended[1]:
                stopped = body if ended[0] else orelse
                self.frame.crashed_tests[key[0]] = (ended[0], stopped.past if stopped.cpu else None,
                                                    key[1])
        joined = join_states([body, orelse])
        if test.accel is None and test.one_gpu is not None:
            joined = _one_gpu_unwrapped(joined, body if test.one_gpu else orelse)
        if unknown and joined.cpu:
            # Past it, the CPU world is surely here only if both arms surely come through:
            # `if not has_gpu(): return` may be the exit a machine without a GPU takes.
            sure = st.sure and body.cpu and body.sure and orelse.cpu and orelse.sure
            if sure != joined.sure:
                joined = joined.copy(sure=sure)
        if test.accel is True and test.cpu is False and test.availability and not test.of_data and \
                joined.cpu:
            # (`if x.is_cuda: eye = eye.cuda()` follows its input: whoever placed x chose)
            if _housekeeping_only(node.body):
                self.cpu_aware = self.cpu_aware or self.foreign_depth == 0  # no device chosen
            else:
                self.chose_fallback()  # `if torch.cuda.is_available(): model.cuda()`: a choice
        return joined

    def host_type_test(self, test: Any, st: State) -> Optional[bool]:
        """The arm (True: the body) where a type test proves its value is no tensor, when
        devlint does not know that value: `if isinstance(Trf, np.ndarray): pts =
        np.asarray(pts)` is a helper's path for numpy input, which a caller's tensors take only
        if that caller passes numpy there too; a device tensor converted in it is not proven."""
        if type(test) is cst.Comparison and len(test.comparisons) == 1:
            # `bboxes_type = type(bboxes)` of a parameter, then `if bboxes_type is np.ndarray:`
            # (or `type(x) == np.ndarray`): the helper's path for NumPy input
            operator = type(test.comparisons[0].operator)
            if operator in (cst.Is, cst.Equal, cst.IsNot, cst.NotEqual) and \
                    self.value(test.left, st) == UNKNOWN_CLASS and \
                    tensor_kinds(test.comparisons[0].comparator) is False:
                return operator in (cst.Is, cst.Equal)
        narrowed = not_a_tensor(test)
        if narrowed is None:
            return None
        name, arm = narrowed
        return arm if type(unwrap(self.lookup(name, st))) is Opaque else None

    def for_(self, node: cst.For, st: State) -> State:
        iterated = self.value(node.iter, st)
        element = self.element_of(iterated, node)
        info = self.loop_info(node, iterated)

        def bind_target(state: State) -> None:
            self.bind(node.target, element, state, node, entry=st)

        aliases = _display_names(node)
        if aliases:
            # `for b in (batch, pf_batch): b[k] = b[k].cuda()`: each name's object is changed
            self.loop_aliases[node.target.value] = aliases
        try:
            end = self.loop(node, info, st, bind_target, None,
                            nonempty=_never_empty(node.iter) or (
                                _counts_or_loads(node.iter, iterated, element) and
                                self.read_after_the_loop(node, info)))
        finally:
            if aliases:
                self.loop_aliases.pop(node.target.value, None)
        self.each_host_module(node, iterated, st)
        return end

    def read_after_the_loop(self, node: cst.For, info: LoopInfo) -> bool:
        """Whether code that runs after the loop reads a name only its body binds (`return
        loss.item()` after `for x, y in loader: ... loss = ...`): were the body never run,
        Python would raise there, so every run that goes on ran it at least once. The code
        after it is the rest of its block and, through enclosing loops and `with` blocks, the
        rest of theirs (an `if` or `try` around it may bind the name on another path); a name
        bound before the loop, in those blocks or as a parameter, proves nothing."""
        known = self._ran.get(id(node))
        if known is None or known[0] is not node:  # (an id is reused only once a tree is gone)
            known = self._ran[id(node)] = (node, self._read_after(node, info.binds))
        return known[1]

    def _read_after(self, node: cst.For, binds: frozenset) -> bool:
        """`read_after_the_loop`, read from the code once per loop (it depends on nothing else)."""
        blocks = self.frame.blocks
        level = len(blocks) - 1
        if level < 0 or blocks[level][0][blocks[level][1]] is not node:
            return False
        later: list = []
        before: list = []
        while True:
            statements, index = blocks[level]
            before += statements[:index]
            later += statements[index + 1:]
            if level == 0:
                break
            outer, at = blocks[level - 1]
            if type(outer[at]) not in (cst.For, cst.While, cst.With):
                break  # an `if` or a `try` may bind the name on its other path
            level -= 1
        bound = binds & _reads_first(later)
        if not bound:
            return False
        function = self.frame.function
        if function is not None:
            bound -= {p[0] for p in function.params}
        before_bound, before_declared = _bindings(_statements_in(before))
        return bool(bound - before_bound - before_declared)

    def each_host_module(self, node: cst.For, iterated: Value, st: State) -> None:
        """`for m in metrics.values(): m.update(preds, y)` over a dict display whose modules
        are moved but one: the loop's element joins their places, so the body is run once more
        for each module left on the CPU, bound to it alone, and only what it hands device
        tensors is kept (a metric never moved, DEV019)."""
        items = _module_items(node.iter, iterated, lambda n: self.value(n, st))
        if not items:
            return
        for item in items:
            saved = self.obs
            self.obs = Observations()
            try:
                body = State(dict(st.env), st.accel, st.cpu, st.sure, st.past)
                self.bind(node.target, item, body, node, entry=st)
                self.suite(node.body, body)
                found = [e for e in self.obs.events if e.kind == "host-call"]
            finally:
                self.obs = saved
            self.obs.events.extend(found)

    def while_(self, node: cst.While, st: State) -> State:
        return self.loop(node, self.loop_info(node, None), st, None, node.test)

    def loop(self, node: Any, info: LoopInfo, entry: State, bind_target, test: Any,
             nonempty: bool = False) -> State:
        """Run the body until the state at its head no longer changes. Observations of the
        passes before are dropped: they saw an unfinished state. A `for` over what is never
        empty (`range(300)`) leaves with the body run at least once."""
        frame = LoopFrame(info)
        self.frame.loops.append(frame)
        head = entry
        exits: list = []
        first_pass: Optional[Observations] = None
        carried: list = []  # meetings of values the body sends to the CPU, from iteration 2 on
        for attempt in range(MAX_LOOP_PASSES):
            saved = self.obs
            self.obs = Observations()
            frame.breaks, frame.continues = [], []
            body_state, exit_state = self.enter(head, test)
            if bind_target is not None:
                bind_target(body_state)
            first = _first_statement(node.body)
            if first is not None:
                self.bound_here(first, body_state)
            out = self.suite(node.body, body_state)
            back = join_states([out] + frame.continues)
            following = join_states([entry, back])
            stable = following.same(head) or attempt == MAX_LOOP_PASSES - 1
            if stable:
                if first_pass is not None:
                    # The first pass ran on the state entering the loop: its observations are
                    # those of the first iteration (a decoder input that is on the CPU only
                    # then), later passes' are of the joined state.
                    saved.extend(first_pass)
                saved.extend(self.obs)
                saved.meetings.extend(carried)
                self.obs = saved
                exits = [exit_state if test is not None else back if nonempty else following] \
                    + frame.breaks
                break
            if attempt == 0:
                first_pass = self.obs
                self.obs = saved
                carried = self.second_iteration(node, entry, back, test, bind_target, frame)
            self.obs = saved
            head = _widen(head, following) if attempt == MAX_LOOP_PASSES - 2 else following
        self.frame.loops.pop()
        end = join_states(exits[:1])
        if node.orelse is not None and end.live:
            end = self.suite(node.orelse.body, end)
        return join_states([end] + exits[1:])

    def second_iteration(self, node: Any, entry: State, back: State, test: Any, bind_target,
                         frame: LoopFrame) -> list:
        """`tok = model.out(h).argmax(-1).type(torch.LongTensor)` at the end of a decode step:
        the first iteration reads the device value the loop was entered with, every later one
        the CPU copy the body made, which the joined state at the head cannot say. One pass from
        the state after the first iteration gives the meetings of those CPU copies."""
        names = [name for name, value in back.env.items()
                 if type(value) is Tensor and value.place is Place.HOST and not value.scalar and
                 value.why in ("cast", "factory") and value.node is not None and
                 type(entry.env.get(name)) is Tensor and entry.env[name].place is Place.DEVICE]
        if not names:
            return []
        made = {id(back.env[name].node) for name in names}
        inside = {id(sub) for sub in walk(node.body)}
        if not made & inside:
            return []
        saved, breaks, continues = self.obs, frame.breaks, frame.continues
        self.obs = Observations()
        frame.breaks, frame.continues = [], []
        try:
            body_state, _ = self.enter(back, test)
            if bind_target is not None:
                bind_target(body_state)
            self.suite(node.body, body_state)
            return [m for m in self.obs.meetings
                    if id(getattr(m.host.value, "node", None)) in made & inside]
        finally:
            self.obs, frame.breaks, frame.continues = saved, breaks, continues

    def enter(self, head: State, test: Any) -> tuple[State, State]:
        """The states entering the body and leaving the loop from its head."""
        if test is None:
            return head.copy(), head
        flag = self.truth(self.value(test, head))
        body = head.copy(accel=head.accel and flag.accel is not False, cpu=head.cpu and flag.cpu is not False)
        leave = head.copy(accel=head.accel and flag.accel is not True, cpu=head.cpu and flag.cpu is not True)
        return body, leave

    def try_(self, node: Any, st: State) -> State:
        catches = _falls_back(node)
        self.catching += catches
        try:
            body = self.suite(node.body, st.copy())
        finally:
            self.catching -= catches
        caught = join_states([st, body]) if body is not st else st
        outs = []
        for handler in node.handlers:
            inner = caught.copy() if caught.live else st.copy()
            if handler.type is not None:
                self.eval(handler.type, inner)
            if handler.name is not None:
                self.bind(handler.name.name, OPAQUE, inner, handler)
            outs.append(self.suite(handler.body, inner))
        if node.orelse is not None and body.live:
            body = self.suite(node.orelse.body, body)
        end = join_states([body] + outs)
        if node.finalbody is not None:
            end = self.suite(node.finalbody.body, end if end.live else st.copy())
        return end

    def with_(self, node: cst.With, st: State) -> State:
        effects = []
        for item in node.items:
            value = self.value(item.item, st)
            effects.append(self.context_effect(item.item, value, st))
            if item.asname is not None:
                self.bind(item.asname.name, _entered(value), st, self.statement or node)
        fake = any(undo == "fake" for undo in effects)
        if "gpu" in effects and st.cpu and not self.catching:
            st = State(st.env, st.accel, False, st.sure, st.past)
        body = self.suite(node.body, st.copy(cpu=False) if fake else st)
        if fake:
            body = State(body.env, body.accel, body.live and st.cpu, st.sure, body.past)
        for undo in reversed(effects):
            if callable(undo):
                undo()
        return body

    def context_effect(self, expr: Any, value: Value, st: State):
        """`with torch.no_grad()`, `with torch.device('cuda')`, `with pytest.raises(...)`."""
        callee = self.value(expr.func, st) if type(expr) is cst.Call else value
        qualname = callee.qualname if type(callee) is Ref else dotted(expr.func) if type(expr) is cst.Call else None
        if type(expr) is not cst.Call and (type(value) is Device or (
                type(value) is Opaque and names.names_device(dotted(expr) or ""))):
            # `with self.device:` (a torch.device is a context manager): factories inside make
            # their tensors there, or somewhere unknown
            return self.factories_on(value if type(value) is Device else Device("accel", None, expr))
        if qualname is None:
            return None
        if qualname in api.NO_GRAD:
            self.no_grad += 1
            return lambda: setattr(self, "no_grad", self.no_grad - 1)
        if api.EXPECT_RAISE.search(qualname):
            self.expect_raise += 1
            return lambda: setattr(self, "expect_raise", self.expect_raise - 1)
        if api.FAKE_CONTEXTS.search(qualname):
            return "fake"  # fake or meta tensors: a device literal inside allocates nothing
        if qualname == "torch.cuda.device" and expr.args and (
                type(expr.args[0].value) is cst.Integer or
                self.option_index_default(expr.args[0].value) is not None):
            # `with torch.cuda.device(2):` selects a GPU on entry, which raises without one
            # (dnn_ctr's `main.py`; `-1`, no device, is no literal index), as does an option's
            # index as the script runs by default (DRAEM's `torch.cuda.device(args.gpu_id)`,
            # `--gpu_id` defaulting to 0): what the block does runs only on a machine with a GPU
            return "gpu"
        if qualname in api.DEVICE_CONTEXTS and type(value) is Device:
            return self.factories_on(value)
        return None

    def factories_on(self, device: Device):
        """Inside the block, factories make their tensors on `device`; the undo for its end."""
        previous = self.default_device
        self.default_device = device
        return lambda: setattr(self, "default_device", previous)

    def match_(self, node: Any, st: State) -> State:
        self.eval(node.subject, st)
        outs = [st]
        for case in node.cases:
            outs.append(self.suite(case.body, st.copy()))
        return join_states(outs)

    # --- definitions ------------------------------------------------------------------------

    def function_def(self, node: cst.FunctionDef, st: State) -> State:
        info = self.function_info(node)
        # Defined past `assert torch.cuda.is_available()` (or an exit without CUDA): a machine
        # without a GPU never gets to call it.
        info.defined_cpu = info.defined_cpu and st.cpu
        for decorator in node.decorators:
            self.decorate(info, decorator.decorator, st)
        closure = dict(st.env) if self.frame.function is not None else None
        if self.frame.closure is not None and closure is not None:
            closure = {**self.frame.closure, **closure}
        st.env[node.name.value] = Func(info, closure)
        return st

    def function_info(self, node: Any) -> FuncInfo:
        info = self.functions.get(id(node))
        if info is not None:
            return info
        name = node.name.value if type(node) is cst.FunctionDef else "<lambda>"
        info = FuncInfo(node, name, cls=self.frame.cls, owner=self)
        info.params = self.parameters(node.params)
        info.locals = local_names(node)
        info.generator = type(node) is cst.FunctionDef and _yields(node.body)
        info.is_test = bool(names.TEST_NAME.search(name)) or (info.cls is not None and info.cls.is_test)
        # A test's name says what it tests, not where it runs: a runner without a GPU runs
        # `test_forward_cuda` too (DEV022).
        info.needs_cuda = (type(node) is cst.FunctionDef and names.CUDA_PURPOSE.search(name) is not None
                           and not (info.is_test and name.startswith("test"))) \
            or (info.cls is not None and info.cls.needs_cuda) or self.cuda_only_module \
            or (any(names.GPU_PARAMETER.search(p[0]) for p in info.params) and not _has_cpu_arm(node))
        # A function whose every run makes a call that raises without a GPU (`torch.cuda.
        # synchronize()`, `nn.parallel.data_parallel`) runs only with one: its CUDA literals are
        # its purpose, and a run without a GPU that calls it stops there.
        info.straight_gpu_call = type(node) is cst.FunctionDef and not info.is_test and (
            self.gpu_calls is not False and self.needs_cuda_straight(node, State(self.module_env, True, False))
            # DRIT's `def setgpu(self, gpu): self.disA.cuda(self.gpu)`, which every script calls
            # first: CUDA-specific by purpose, so its `.cuda()` is no finding, and a run
            # without a GPU that calls it stops there all the same
            or info.needs_cuda and _cuda_straight(node))
        if type(node) is cst.FunctionDef and info.cls is not None and name in MOVE_OVERRIDES:
            info.cls.moves_itself = True
        self.functions[id(node)] = info
        return info

    def parameters(self, params: cst.Parameters) -> tuple:
        out = []
        saved = self.frame
        guard = State(dict(self.module_env), accel=True, cpu=False)  # a default is no choice
        for kind, group in (("positional", params.posonly_params), ("positional", params.params),
                            ("keyword", params.kwonly_params)):
            for param in group:
                default = self.value(param.default, guard) if param.default is not None else None
                annotation = _annotation(param.annotation.annotation) if param.annotation is not None else None
                out.append((param.name.value, kind, default, annotation))
        self.frame = saved
        for kind, star in (("*", params.star_arg), ("**", params.star_kwarg)):
            if type(star) is cst.Param:
                out.append((star.name.value, kind, None, None))
        return tuple(out)

    def decorate(self, info: FuncInfo, decorator: Any, st: State) -> None:
        target = decorator.func if type(decorator) is cst.Call else decorator
        value = self.value(target, State(st.env, True, False))
        qualname = value.qualname if type(value) is Ref else dotted(target) or ""
        last = qualname.rsplit(".", 1)[-1]
        if qualname in api.NO_GRAD or last in ("no_grad", "inference_mode"):
            info.no_grad = True
        elif last == "staticmethod":
            info.static = True
        elif last == "classmethod":
            info.classmethod = True
        elif last in ("property", "cached_property"):
            info.prop = True
        elif last == "skip":
            info.never_runs = True
        elif api.SKIP_DECORATORS.search(qualname) and type(decorator) is cst.Call and decorator.args:
            condition = self.truth(self.value(decorator.args[0].value, State(st.env, True, True)))
            skips_without_gpu = condition.cpu is True if last in ("skipIf", "skipif", "skip_if") \
                else condition.cpu is False
            if skips_without_gpu:
                info.needs_cuda = True
            if self.rank_test(decorator.args[0].value):
                info.rank_skip = True
        elif _gpu_marker(decorator):
            # `@requires_cuda`, `@gpu_test(gpu_count=1)`, `@RunIf(min_cuda_gpus=1)`: a marker that
            # runs the function only where a GPU is.
            info.needs_cuda = True

    def class_def(self, node: cst.ClassDef, st: State) -> State:
        info = self.classes.get(id(node))
        if info is None:
            bases = tuple(self.value(b.value, st) for b in node.bases)
            info = ClassInfo(node, node.name.value, bases, owner=self)
            info.is_module = any(_is_module_base(b) for b in bases)
            info.framework = any(type(b) is Ref and api.is_framework_module(b.qualname) or
                                 type(b) is Klass and b.info.framework for b in bases)
            info.callback = any(type(b) is Ref and api.FRAMEWORK_CALLBACKS.match(b.qualname) is not None or
                                type(b) is Klass and b.info.callback for b in bases)
            info.is_test = bool(names.TEST_NAME.search(info.name)) or any(
                (type(b) is Ref and b.qualname.endswith("TestCase")) or
                (type(b) is Klass and b.info.is_test) for b in bases)
            info.needs_cuda = (names.CUDA_PURPOSE.search(info.name) is not None and
                               not info.is_test) or any(  # `class TestCuda` runs without a GPU too
                _gpu_marker(d.decorator) for d in node.decorators) or (  # `@ray.remote(num_gpus=1)`
                not info.is_test and self.constructed_only_with_cuda(node, st))
            self.classes[id(node)] = info
            outer = self.frame
            self.frame = Frame(None, cls=info)
            body = State(dict(st.env), st.accel, st.cpu, st.sure, st.past)
            names_before = set(body.env)
            self.block(node.body.body, body)
            self.frame = outer
            info.namespace = {k: v for k, v in body.env.items() if k not in names_before or body.env[k] is not st.env.get(k)}
        st.env[node.name.value] = Klass(info)
        return st

    # --- calls into this file's code --------------------------------------------------------

    def call_function(self, func: Func, args: list, kwargs: dict, node: Any, st: State,
                      alone: bool = False) -> tuple[Value, Optional[Value]]:
        """Interpret `func` with these arguments: (what it returns, `self` after it)."""
        info = func.info
        self.analyzed.add(id(info))
        if info.never_runs:
            return OPAQUE, None
        self.note_reach(info.owner, info.node, st)
        accel = st.accel
        cpu = st.cpu and not info.needs_cuda and info.defined_cpu
        sure = st.sure and not self.guessing and not func.gpu_world
        key = (id(info.node), tuple(args), tuple(sorted(kwargs.items(), key=lambda kv: kv[0])),
               accel, cpu, sure, self.no_grad > 0, self.rank_guard > 0, self.expect_raise > 0,
               _origins(args, kwargs), id(st.past) if cpu and st.past is not None else None,
               self.catching > 0)
        try:
            cached = self.memo.get(key)
        except TypeError:  # an unhashable value: compute without the memo
            key, cached = None, None
        if cached is not None:
            for ident in self.memo_made.get(key, ()):
                self.note_made(ident)  # a second `build()` makes a second model
            self.pass_host_params(info, args, node)
            self.forget_changed_in_place(info, args, node, st)
            self.keep(cached[2], info, node, args, kwargs)
            self.after_gpu_requirement(info, st, cpu and cached[3])
            self.after_crash_on_cpu(info, st, cached[6], cached[7])
            self.moved_in_place(info, cached[4], args, node, st)
            return cached[0], cached[1]
        if self.depth >= MAX_DEPTH or self.calls >= MAX_CALLS or self.frame.function is info or \
                any(f.function is info for f in self.frames):
            return REFUSED, None
        foreign = info.owner is not self and info.owner is not None
        # the depth counts files crossed, not calls: `__call__` calling its own
        # `save_checkpoint` stays in the file it already is in
        current = self.frame.function.owner if self.frame.function is not None else None
        crossing = foreign and current is not info.owner
        if foreign and (crossing and self.foreign_depth >= MAX_FOREIGN_DEPTH or
                        self.foreign_calls >= MAX_FOREIGN_CALLS):
            return REFUSED, None
        self.calls += 1
        self.foreign_calls += foreign
        self.foreign_depth += crossing
        made_from = len(self.made)
        # a call of this file's code inside a loop of its caller: what each parameter came from
        loops = self.frame.loops
        passing: dict = {}
        if loops and not foreign and type(node) is cst.Call and type(info.node) is cst.FunctionDef:
            passed = _passed(info, args, node)
            spelled = {param: dotted(value) for param, value in passed}
            enclosing = tuple(lf.info for lf in loops)
            passing = {param: (value, enclosing, spelled) for param, value in passed}
        try:
            result = self._interpret(func, args, kwargs, accel, cpu, sure, passing,
                                     st.past if cpu else None,
                                     called=type(node) is cst.Call and not alone)
        finally:
            self.foreign_depth -= crossing
        if key is not None:
            self.memo[key] = result
            if len(self.made) > made_from:
                self.memo_made[key] = tuple(ident for ident, _ in self.made[made_from:])
        self.pass_host_params(info, args, node)
        self.forget_changed_in_place(info, args, node, st)
        if crossing and self.foreign_depth == 0 and result[5]:
            # `device = get_device()` of a project helper choosing `cuda` or `cpu`: the file
            # keeps that choice, as if its own code had made it
            self.own_fallback = True
        self.keep(result[2], info, node, args, kwargs)
        self.after_gpu_requirement(info, st, cpu and result[3])
        self.after_crash_on_cpu(info, st, result[6], result[7])
        self.moved_in_place(info, result[4], args, node, st)
        return result[0], result[1]

    def after_crash_on_cpu(self, info: FuncInfo, st: State, crashed: bool, past: Any = None) -> None:
        """A callee that placed something on CUDA in the CPU world raised there: a caller of
        the same file carries that on, and one in another file (`SiameseNet()` built by the
        training script) stops its CPU world after the call. One root cause, one finding, at
        the callee's literal. A callee of this file that raised on every CPU path (`past`, its
        literal) leaves its caller past that crash."""
        if not crashed or not st.cpu:
            return
        if info.owner is not self and info.owner is not None:
            self.requires_cuda = True
        else:
            self.frame.crashes_on_cpu = True
            if past is not None and self.frame.crash_here is None:
                self.frame.crash_here = past

    def after_gpu_requirement(self, info: FuncInfo, st: State, gpu_only_return: bool) -> None:
        """A helper that returns on a GPU machine and never on a CPU one (`init_distributed_mode`
        raising without CUDA) is a GPU requirement of its caller too; so is one whose every run
        makes a call that raises without a GPU (`needs_cuda_straight`), whose CUDA literals are
        then its purpose."""
        self.requires_cuda |= gpu_only_return or (st.cpu and info.straight_gpu_call)
        if info.straight_gpu_call:
            self.required_by_gpu_code(info.node)

    def forget_changed_in_place(self, info: FuncInfo, args: list, node: Any, st: State) -> None:
        """`input_cuda(input)`, whose body sets `input["kspace"] = input["kspace"].cuda()`: a
        batch handed to a function that assigns moved values into its items was moved in place,
        so what the caller's name holds afterwards is not the loader's CPU batch."""
        if type(node) is not cst.Call or type(info.node) is not cst.FunctionDef:
            return
        changed = _items_assigned(info)
        if not changed:
            return
        passed = _passed(info, args, node)
        for param, value in passed:
            if param in changed and type(value) is cst.Name and value.value in st.env:
                held = unwrap(st.env[value.value])
                if type(held) is Tensor and held.why == "batch":
                    st.env[value.value] = replace(held, place=Place.UNKNOWN, why="data", bound=None)

    def pass_host_params(self, info: FuncInfo, args: list, node: Any) -> None:
        """`forward(self, src, lengths)` handing `lengths` to `self.encode(src, lengths)`, which
        packs with it: a parameter passed on to one that must stay on the CPU must stay there
        too, so a caller of `forward` passing CPU lengths is right."""
        caller = self.frame.function
        if not info.host_params or caller is None or type(node) is not cst.Call:
            return
        passed = _passed(info, args, node)
        own = {p[0] for p in caller.params}
        for param, value in passed:
            if param in info.host_params and type(value) is cst.Name and value.value in own:
                caller.host_params.add(value.value)

    def _interpret(self, func: Func, args: list, kwargs: dict, accel: bool, cpu: bool, sure: bool = True,
                   passing: Optional[dict] = None, past: Any = None, called: bool = False):
        info = func.info
        env = self.bind_parameters(info, args, kwargs, called)
        saved = (self.frame, self.obs, self.statement, self.discarding, self.rank_guard,
                 self.expect_raise, self.ifexp_depth, self.default_device, self.no_grad, self.inert)
        self.frames.append(self.frame)
        self.frame = Frame(info, func.closure, passed_in_loop=passing or {})
        self.obs = Observations()
        self.statement, self.discarding = None, None
        self.ifexp_depth = 0
        self.inert = 0  # `print(train(cfg))`: the message is inert, the code it calls places things
        self.no_grad += info.no_grad
        self.test_depth += info.is_test
        self.depth += 1
        try:
            st = State(env, accel, cpu, sure, past)
            if type(info.node) is cst.Lambda:
                value = self.value(info.node.body, st)
                self.frame.returns.append((st, value))
                end = st.dead()
            else:
                end = self.suite(info.node.body, st)
            returns = self.frame.returns
            if end.live:
                returns.append((end, NONE))
            result = _returned(returns) if returns else OPAQUE
            if info.generator:
                result = Iterable(_join_all(self.frame.yields) if self.frame.yields else OPAQUE,
                                  node=info.node)
            receiver = None
            if info.params and info.cls is not None and not info.static:
                first = info.params[0][0]
                holding = [s for s, _ in returns if first in s.env]
                # joined as paths join, so `self.device` keeps what each world gave it
                receiver = unwrap(join_states(holding).env.get(first)) if holding else None
            observations = self.obs
            gpu_only = any(s.accel for s, _ in returns) and not any(s.cpu for s, _ in returns)
            moved = _moved_parameters(info, args, returns)
            # a device with a CPU fallback, in what it returns (`cuda` on one path, `cpu` on
            # another) or on one of its return paths (`"auto"` resolved, a device named by the
            # caller otherwise): the helper chooses for its callers
            fallback = _chooses_fallback(result) or any(_chooses_fallback(value)
                                                        for _, value in returns)
            crashed = self.frame.crashes_on_cpu
            # the crash every CPU path of it passed: one of its own (a caller's, passed in, is
            # the caller's already)
            ended = common_past([s for s, _ in returns if s.cpu]) if crashed else None
            ended = ended if ended is not past else None
        finally:
            self.depth -= 1
            self.test_depth -= info.is_test
            (self.frame, self.obs, self.statement, self.discarding, self.rank_guard,
             self.expect_raise, self.ifexp_depth, self.default_device, self.no_grad,
             self.inert) = saved
            self.frames.pop()
        return result, receiver, observations, gpu_only, moved, fallback, crashed, ended

    def moved_in_place(self, info: FuncInfo, moved: dict, args: list, node: Any, st: State) -> None:
        """`prepare(model, device)`, whose every return path has moved the module it was given
        (`model.to(device)`, in place): the caller's module is where the helper left it."""
        if not moved or type(node) is not cst.Call or type(info.node) is not cst.FunctionDef:
            return
        for param, value in _passed(info, args, node):
            after = moved.get(param)
            if after is None or type(value) is not cst.Name or value.value not in st.env:
                continue
            held = unwrap(st.env[value.value])
            if type(held) is Module and held.ident == after.ident:
                st.env[value.value] = replace(held, place=after.place, moved_at=after.moved_at,
                                              device=after.device, assumed=False)
                self.rebind_alias(held.ident, st.env[value.value], st)

    def keep(self, observations: Observations, info: FuncInfo, node: Any, args: list,
             kwargs: dict) -> None:
        """What a call observed joins the caller's observations. Inside another file's code
        (a model's `forward`, a metrics helper, an engine's loop) those are that file's
        findings, with this file's values: each node seen there remembers the call at this
        file's own line that reached it ("reached from train.py:41")."""
        observations = self.at_call_site(observations, node, args, kwargs)
        self.obs.extend(observations)
        foreign = info.owner is not self and info.owner is not None
        if not foreign or self.summarising:
            return
        self.foreign_owners.setdefault(id(info.owner), info.owner)
        if self.foreign_depth == 0:  # `node` is this file's own call
            for observed in observations.all():
                for anchor in observed_nodes(observed):
                    self.reached.setdefault(id(anchor), node)

    def at_call_site(self, observations: Observations, node: Any, args: list, kwargs: dict) -> Observations:
        """A helper handed a CPU batch meets device tensors inside: the batch is this call's
        argument, and the finding (and its fix) belong where the loop passes it."""
        call_args = getattr(node, "args", None)
        if not observations.meetings or type(node) is not cst.Call or not call_args:
            return observations
        by_binding = {}
        for arg, value in zip(call_args, list(args)[-len(call_args):] if args else []):
            if type(value) is Tensor and value.why == "batch" and value.bound is not None:
                by_binding[id(value.bound[1]), value.bound[0]] = arg.value
        if not by_binding:
            return observations
        moved = []
        for meeting in observations.meetings:
            host = meeting.host.value
            if host.why == "batch" and host.bound is not None and \
                    (id(host.bound[1]), host.bound[0]) in by_binding:
                meeting = replace(meeting, host=replace(meeting.host, node=by_binding[id(host.bound[1]), host.bound[0]]))
            moved.append(meeting)
        copy = Observations()
        copy.extend(observations)
        copy.meetings = moved
        return copy

    def bind_parameters(self, info: FuncInfo, args: list, kwargs: dict, called: bool = False) -> dict:
        """The parameters' values. `called`: a call the run makes (not a function run on its
        own), whose omitted arguments take their defaults: a device switch left off
        (`use_cuda=False`) is off, and a CUDA default (`device=torch.device("cuda")`) is what
        the function places on, in both worlds."""
        env: dict = {}
        positional = list(args)
        extra_kwargs = dict(kwargs)
        for name, kind, default, annotation in info.params:
            if kind == "*":
                env[name] = Seq("tuple", tuple(positional), _join_all(positional) if positional else OPAQUE)
                positional = []
                continue
            if kind == "**":
                if extra_kwargs and "*" not in extra_kwargs and "**" not in extra_kwargs:
                    # `TPS(mode='kp', bs=bs, kp_1=kp_1, kp_2=kp_2)`: the call's keywords, by name
                    items = tuple(extra_kwargs.values())
                    env[name] = Seq("dict", items, _join_all(items), tuple(extra_kwargs))
                else:
                    env[name] = Seq("dict", None, _join_all(extra_kwargs.values()) if extra_kwargs else OPAQUE)
                continue
            if kind == "positional" and positional:
                value = positional.pop(0)
            elif name in extra_kwargs:
                value = extra_kwargs.pop(name)
            elif "**" in extra_kwargs or "*" in extra_kwargs:
                value = Opaque(name, unseen_arg=True)
            elif default is not None and self.distributed and type(default) is Scalar and \
                    default.node is not None and api.FIXED_CUDA_INDEX.match(default.text or ""):
                # `def move_batch(batch, device="cuda:0")` called on every rank without a device:
                # the default's GPU is every rank's (DEV013), not a caller's choice left open
                value = default
            elif default is not None and called and type(default) in (Device, Flag) and \
                    (type(default) is Flag or default.node is not None):
                value = default
            elif default is not None:
                value = _default(name, default)
            else:
                value = self.parameter_value(info, name, annotation) if not args else \
                    Opaque(name, unseen_arg=True)
            value = self.by_convention(info, name, unwrap(value))
            if annotation is not None and (type(value) is Module and value.cls is None or
                                           type(value) is Tensor and not value.plain):
                value = self.annotated_class(info, annotation, value)
            env[name] = value
        return env

    def annotated_class(self, info: FuncInfo, annotation: str, value: Value) -> Value:
        """`def run_transcribe(model: DeepSpeech, ...)` handed a model of a class devlint could not
        follow (a global a request handler reads): the annotation names its class, a module
        class of the project, whose `forward` says which arguments it keeps on the CPU."""
        env = info.owner.module_env if info.owner is not None and info.owner is not self else self.module_env
        found = unwrap(self.read(env, annotation.strip("'\"").rsplit(".", 1)[-1])) if env else None
        if type(found) is Klass and found.info.is_module:
            if type(value) is Tensor:  # an object moved whole, of no kind devlint knew
                return Module(value.place, value.node, cls=found.info, device=value.device,
                              moved_at=value.moved_at, assumed=value.assumed, ident=id(value.node))
            return replace(value, cls=found.info)
        return value

    @property
    def loader_prior(self) -> bool:
        """Whether a value named like a loader (`train_loader`, a `loader` parameter) that
        nothing else tells of is taken for a DataLoader of CPU batches: not in an imported
        module's summary, nor in a file the project imports (`callers_seen`)."""
        return self._loader_prior and not self.summarising and not self.callers_seen()

    def made_between(self, ident: int, first: Any, then: Any) -> bool:
        """Whether the code that makes the module `ident` made one again between the two
        observations: the second one is then about another object of the same making."""
        return any(made == ident and first.seq < when < then.seq for made, when in self.made)

    def same_run(self, first: Any, then: Any) -> bool:
        """Whether the observation `then` was made after `first` in one run of the code (the
        module's, or one function's run on its own): what a copy of a model meets after its
        original moved, across the files that run went through. A result replayed from a memo
        keeps its first run's time, and so proves nothing here."""
        starts = self.run_starts
        return first.seq < then.seq and bisect_right(starts, first.seq) == bisect_right(starts, then.seq)

    def callers_seen(self) -> bool:
        """Whether project files import this file. A parameter's name stands in for a caller
        nobody can see; here the importers' runs show what their calls pass (the project's own
        loader of batches already on the device, a helper object built with "cpu"), and what
        those runs find in this file's code is reported here."""
        return bool(self.importers())

    def importers(self) -> frozenset:
        """The project files whose import lines name this one (empty where that is not known,
        or while summarising), asked once; a cached result records them."""
        if self._imported is None:
            self._imported = frozenset()
            if self.files is not None and not self.summarising:
                found = self.files.importers(self.path)
                if found is not None:
                    self._imported = found
                    self._importers_known = True
                    self.probes.add(("importers", self.path, found))
        return self._imported

    def cuda_extensions(self) -> frozenset:
        """The extensions the project builds from CUDA sources (`ModuleFiles.cuda_extensions`):
        CUDA-only packages of its own."""
        if self.files is None or not self.path:
            return frozenset()
        if self._cuda_extensions is None:
            found = self.files.cuda_extensions(self.path)
            self.probes.add(("cuda_extensions", self.path, found))
            self._cuda_extensions = frozenset(found)
        return self._cuda_extensions

    def gpu_deployment(self) -> bool:
        """Whether the project declares this file deployed only where a GPU is. Asked only of
        a file that imports `cog`, the one declaration read (`workspace.deploy`)."""
        if self.files is None or self.summarising or not any(
                type(stmt) is cst.SimpleStatementLine and any(
                    type(small) is cst.ImportFrom and dotted(small.module) == "cog"
                    for small in stmt.body) for stmt in self.module.body):
            return False
        found = self.files.gpu_deployment(self.path)
        self.probes.add(("gpu_deployment", self.path, found))
        return found

    def imported_only_with_gpu(self) -> bool:
        """Whether every project file importing this one runs only with a GPU
        (`workspace.accelerators.gpu_only_importers`): its scripts set the CUDA device before
        they run anything, so no machine without a GPU runs this file's code. Asked only of a
        file that names CUDA or loads a file: only those have what a machine without a GPU
        would trip on (DEV001, DEV008)."""
        if self.files is None or self.summarising or not self.path.endswith(".py"):
            return False
        data = self.files.read(self.path)
        if data is None or not _CPU_WORLD_WORDS.search(data):
            return False
        found = self.files.gpu_only_importers(self.path)
        self.probes.add(("gpu_only_importers", self.path, found))
        return found

    def names_no_accelerator(self) -> bool:
        """Whether no file of this file's project names an accelerator (`workspace.accelerators`):
        then its models run where they were built, and a module's `forward` is not assumed on
        the device. Unknown (no project, too many files) is no."""
        if self._names_accelerator is None:
            found = None
            if self.files is not None and not self.summarising:
                found = self.files.names_accelerator(self.path)
                if found is not None:
                    self.probes.add(("names_accelerator", self.path, found))
            self._names_accelerator = found is not False
        return not self._names_accelerator

    def default_set_elsewhere(self) -> bool:
        """Whether a file whose run loads this one sets the default tensor type or device to an
        accelerator (`workspace.accelerators.default_elsewhere`): then a factory without
        a device may make its tensor on the GPU. Unknown (no project, too many files) is no."""
        if self._default_elsewhere is None:
            found = None
            if self.files is not None:
                found = self.files.default_elsewhere(self.path)
                if found is not None:
                    self.probes.add(("default_elsewhere", self.path, found))
            self._default_elsewhere = bool(found)
        return self._default_elsewhere

    def host_saving(self) -> bool:
        """Whether this file's project writes its modules' state from CPU tensors (BasicSR's
        `save_network`: see `workspace.saves`): then a checkpoint of unknown origin that it
        loads holds CPU tensors. Unknown (no project, too many files) is no."""
        if self._host_saving is None:
            self._host_saving = False
            if self.files is not None and not self.summarising:
                found = self.files.host_saving(self.path)
                if found is not None:
                    # asked by a rule, after the run's probes were recorded: record it now
                    from devlint.lint.model.summaries import record_probe

                    self._host_saving = found
                    record_probe(("host_saving", self.path, found))
        return self._host_saving

    def by_convention(self, info: FuncInfo, name: str, value: Value) -> Value:
        """What an unknown argument is taken to be, by its name (see `conventions`). What the
        caller made by a call handed the device (`names.last_part` reads no name there) keeps
        the caller's unknown, whatever the parameter is called."""
        if type(value) is not Opaque or (value.name and not names.last_part(value.name)):
            return value
        # A constructor taking a model and a device stores them (`State(model=..., device=...)`):
        # where the model is, its caller or a method's move says, not its signature.
        if names.names_model(name) and info.takes_device and not names.names_loader(name) and \
                info.name != "__init__" and not self.callers_seen():
            return Module(Place.DEVICE, info.node, assumed=True, spelled=name)
        if names.names_loader(name) and self.loader_prior:
            return Iterable(Tensor(Place.HOST, "batch", None, plain=False, assumed=True), loader=True)
        if names.names_device(name) and self.callers_seen():
            return Device(None, None, spelled=name)  # the callers' device, whichever it is
        return Opaque(name, unseen_arg=value.unseen_arg)

    def given_by_constructions(self, cls: ClassInfo, init: FuncInfo) -> frozenset:
        """The parameters of `init` defaulting to None that every construction of `cls` in this
        file passes (by position or keyword, not as the literal `None`): none unless the file
        constructs it at least once, by its name, with no `*args`/`**kwargs`, and no class of
        the file derives from it (a subclass's `super().__init__(...)` is a construction too)."""
        key = (id(cls), id(init))
        if key not in self._given:
            self._given[key] = self._passed_by_every_call(cls, init)
        return self._given[key]

    def _passed_by_every_call(self, cls: ClassInfo, init: FuncInfo) -> frozenset:
        params = [p for p in init.params[1:] if p[1] in ("positional", "keyword")]
        passed = {p[0] for p in params if p[2] is NONE}
        calls, bases = self.calls_and_bases()
        derived = any(node is not cls.node for node in bases.get(cls.name, ()))
        if not passed or init.cls is not cls or derived or not calls.get(cls.name):
            return frozenset()
        positional = [p[0] for p in params if p[1] == "positional"]
        for call in calls[cls.name]:
            if any(a.star for a in call.args):
                return frozenset()
            here = {a.keyword.value for a in call.args
                    if a.keyword is not None and not is_none_literal(a.value)}
            here.update(name for name, a in zip(positional, [a for a in call.args if a.keyword is None])
                        if not is_none_literal(a.value))
            passed &= here
        return frozenset(passed)

    def calls_and_bases(self) -> tuple:
        """This file's calls by the last part of the name they call (`Encoder(...)`,
        `mod.Encoder(...)`), and its classes by the last parts of their bases' names: one walk
        of the module."""
        if self._calls_and_bases is None:
            calls: dict = {}
            bases: dict = {}
            for sub in walk(self.module):
                if type(sub) is cst.Call and type(sub.func) in (cst.Name, cst.Attribute):
                    calls.setdefault(last_part(dotted(sub.func)), []).append(sub)
                elif type(sub) is cst.ClassDef:
                    for base in sub.bases:
                        bases.setdefault(last_part(dotted(base.value)), []).append(sub)
            self._calls_and_bases = (calls, bases)
        return self._calls_and_bases

    def construct(self, node: Any, info: ClassInfo, args: list, kwargs: dict, st: State,
                  unknown_args: bool = False) -> Value:
        """`Cls(...)`: the object `__init__` leaves behind."""
        self.note_foreign_class(node, info)
        self.note_reach(info.owner, info.node, st)
        ident = id(node)
        if info.is_module:
            obj: Value = Module(Place.DEVICE if self.builds_on_device() else Place.HOST, node,
                                cls=info, ident=ident)
        else:
            obj = Instance(info, (), ident)
        init = info.lookup("__init__")
        if type(init) is not Func:
            fields = None if unknown_args or type(obj) is not Instance else dataclass_fields(info)
            if fields is not None:
                # the `__init__` a dataclass is given: each field holds what the call passed
                # (`TrainConfig(resume=args.resume)`), else its default in the class body
                given = [(name, value) for name, (_, value) in zip(fields, args)]
                given += [(name, value) for name, (_, value) in kwargs.items() if name in fields]
                for name, value in given:
                    obj = obj.with_attr(name, value)
                return obj
            return self.layer_init(node, info, obj, st)
        if unknown_args:
            values = [obj] + [Opaque(p[0], unseen_arg=True) for p in init.info.params[1:]
                              if p[1] == "positional" and p[2] is None]
            # `device="cpu"` is one choice of the callers', not the device: built from unknown
            # arguments, the object's device is unknown (`self.device`, and what is made on it).
            # (An argument defaulting to None stays None: the object's own attributes are not
            # joined world by world, so an unknown `gpu` would let a CUDA arm that the CPU world
            # never takes, past `assert torch.cuda.is_available()`, name the CPU world's device.)
            # So is a switch's (`cuda2=True`, `use_gpu=False`): `if self.cuda2: x.cuda()` is
            # the caller's choice, as a flag handed to a call is.
            call_kwargs: dict = {p[0]: Opaque(p[0], unseen_arg=True) for p in init.info.params[1:]
                                 if p[1] not in ("*", "**") and p[2] is not None
                                 and (names.names_device(p[0]) or names.device_flag(p[0]) is not None)}
            # The file's own constructions show how the class is used: an argument defaulting
            # to None that every one of them passes (`TabNetEncoder(..., group_attention_matrix=
            # m)`) is given, of unknown value; its `if m is None:` arm is no path a known run
            # takes, and what that arm makes is not what the object holds.
            for name in self.given_by_constructions(info, init.info):
                call_kwargs.setdefault(name, Opaque(name))
        else:
            values = [obj] + [v for _, v in args]
            call_kwargs = {k: v for k, (_, v) in kwargs.items()}
        # built from unknown arguments, its defaults are stand-ins, not what a caller passed:
        # `if autoencoder is not None:` is not decided by the default `None`
        self.stand_ins += unknown_args
        try:
            _, after = self.call_function(init, values, call_kwargs, node, st)
        finally:
            self.stand_ins -= unknown_args
        built = after if type(after) in (Module, Instance) else obj
        if type(built) is Module and _proven_stateless(built, info):
            built = replace(built, stateless=True)  # a wrapper of pooling: nothing to move
        elif type(built) is Module and built.place is Place.HOST:
            where = _built_beside(built, info)
            if where is not None:
                built = replace(built, place=where)  # `LoRA(moved_layer)`, made beside it
        if not unknown_args:
            known = self.instances.get(id(info))
            self.instances[id(info)] = built if known is None else join(known, built)
            if type(built) is Module and metric_class(info) and holds_state(built):
                self.bound_here(node, st)  # a fix moves the metric right there
                self.obs.events.append(Event("metric", node, built, self.where(st)))
        return built

    def constructed_only_with_cuda(self, node: cst.ClassDef, st: State) -> bool:
        """The class's `__init__` makes a call that needs a GPU on its straight path
        (`self.stream = torch.cuda.Stream()`, the CUDA prefetchers): no object of it exists on a
        machine without one, so its methods run only with a GPU. So does the `__iter__` of an
        iterable class, whose iteration is its one purpose (a prefetcher that makes its
        `torch.cuda.Stream()` there): an object of it is of no use without a GPU."""
        return any(self.needs_cuda_straight(s, st) for s in node.body.body
                   if type(s) is cst.FunctionDef and s.name.value in ("__init__", "__iter__"))

    def needs_cuda_straight(self, method: cst.FunctionDef, st: State) -> bool:
        """`method` makes a call that needs a GPU before anything may return or raise."""
        names_only = State(st.env, True, False)  # what the callee names, not a run of it
        for statement in _straight_lines(method):
            for sub in walk(statement):
                if type(sub) is cst.Call and type(sub.func) in (cst.Name, cst.Attribute) and \
                        last_part(dotted(sub.func)) in _GPU_NEEDING_NAMES:
                    callee = self.value(sub.func, names_only)
                    if type(callee) is Ref and (callee.qualname in api.CUDA_REQUIRING or
                                                callee.qualname in api.DDP and gpu_device_ids(sub)):
                        return True
        return False

    def note_reach(self, owner: Any, definition: Any, st: State) -> None:
        """Another file's function, method or class entered here: whether the CPU world's
        path got there before any crash (`State.past`), and from where, is kept under its name
        in its file. A path DEV001 would not follow (one it cannot rule out, as the arm of
        Proxy-Anchor's `if args.gpu_id != -1: torch.cuda.set_device(...)` that the option's
        default does not take) gets there only as the GPU world does."""
        if owner is self or owner is None or self.summarising or not owner.path:
            return
        name = owner.top_names().get(id(definition))
        if name is not None:
            starts = self.reach.setdefault((absolute(owner.path), name), set())
            if self.where(st).cpu and st.past is None:
                starts.add(self.alone_origin)

    def top_names(self) -> dict:
        """id(node) -> name of this module's top-level functions and classes, and `Cls.name` of
        those classes' methods: what a run of another file can name them by. A nested function
        has no such name, and is left out."""
        if self._top_names is None:
            found: dict = {}
            for statement in self.module.body:
                if type(statement) is cst.FunctionDef:
                    found[id(statement)] = statement.name.value
                elif type(statement) is cst.ClassDef:
                    found[id(statement)] = statement.name.value
                    if type(statement.body) is cst.IndentedBlock:
                        for member in statement.body.body:
                            if type(member) is cst.FunctionDef:
                                found[id(member)] = f"{statement.name.value}.{member.name.value}"
            self._top_names = found
        return self._top_names

    def note_foreign_class(self, node: Any, info: ClassInfo) -> None:
        """An object of another file's class (a config dataclass): the devices its class body
        names are that file's code, which this call runs; a finding on one of them (a `"cuda"`
        default, DEV001) is that file's, reached from here."""
        owner = info.owner
        if owner is None or owner is self or self.summarising:
            return
        literals = [unwrap(v).node for c in info.mro() for v in c.namespace.values()
                    if (type(unwrap(v)) is Device or type(unwrap(v)) is Scalar and unwrap(v).text)
                    and unwrap(v).node is not None]
        if not literals:
            return
        self.foreign_owners.setdefault(id(owner), owner)
        if self.foreign_depth == 0:
            for literal in literals:
                self.reached.setdefault(id(literal), node)

    def layer_init(self, node: Any, info: ClassInfo, obj: Value, st: State) -> Value:
        """`Cls(...)` of a torch layer's subclass without an `__init__` of its own: the layer's
        `__init__` runs, and builds the state with the subclass's `reset_parameters`."""
        reset = next((api.RESETTING_LAYERS.get(api.last(b.qualname)) for c in info.mro() for b in c.bases
                      if type(b) is Ref and api.is_module_class(b.qualname)), None)
        member = info.lookup(reset) if reset else None
        if type(member) is not Func:
            return obj
        self.layer_builds.append(info)
        try:
            _, after = self.call_function(member, [obj], {}, node, st)
        finally:
            self.layer_builds.pop()
        return after if type(after) in (Module, Instance) else obj

    def super_value(self, st: State) -> Value:
        """`super()`: the first base class of this file, bound to `self`; else unknown."""
        info = self.frame.function
        if info is None or info.cls is None or not info.params:
            return OPAQUE
        receiver = st.env.get(info.params[0][0])
        for base in info.cls.bases:
            if type(base) is Klass:
                return _Super(base.info, unwrap(receiver) if receiver is not None else OPAQUE)
        for base in info.cls.bases:
            if type(base) is Ref and api.is_module_class(base.qualname):
                return _LayerSuper(info.cls, unwrap(receiver) if receiver is not None else OPAQUE,
                                   api.RESETTING_LAYERS.get(api.last(base.qualname)))
        if trainer_class(info.cls):
            return _TrainerSuper()
        return OPAQUE

    def call_method(self, node: Any, receiver: Value, name: str, args: list, kwargs: dict, st: State) -> Value:
        if type(receiver) is _Super:
            member = receiver.info.lookup(name)
            if type(member) is Func:
                method = Method(member, receiver.receiver, _self_node(self.frame))
                return self.call_method_value(node, method, args, kwargs, st)
            return NONE
        if type(receiver) is _LayerSuper:
            # torch's layers build their state in `__init__` by calling `self.reset_parameters()`:
            # `super().__init__(...)` of a subclass runs the subclass's override there
            obj = receiver.receiver
            cls = obj.cls if type(obj) in (Module, Instance) and obj.cls is not None else receiver.cls
            member = cls.lookup(receiver.reset) if name == "__init__" and receiver.reset else None
            if type(member) is Func:
                self.call_method_value(node, Method(member, obj, _self_node(self.frame)), [], {}, st)
            return NONE if name == "__init__" else OPAQUE
        if type(receiver) is _TrainerSuper:
            if name == api.TRAINER_PREDICTION_STEP:
                # transformers' `prediction_step` moves the inputs and runs the moved model:
                # its loss, logits and labels are on the device (each may be None, and the
                # logits a tuple for a model of several outputs)
                made = Tensor(Place.DEVICE, "output", node, plain=False)
                return Seq("tuple", (made, made, made), made, node=node)
            return OPAQUE
        return super().call_method(node, receiver, name, args, kwargs, st)

    def returned_from_forward(self, node: Any, value: Value, st: State) -> None:
        """`forward` of a module on the device handing back a CPU tensor it made: the caller's
        device tensors meet it next (a plain attribute or a factory is the cause). Only where
        no caller is seen, when it runs on its own: a caller of this file's code gets the CPU
        tensor, and what it does with it decides (a meeting there, or `pos.to(x.device)`)."""
        info = self.frame.function
        if info is None or info.name != "forward" or info.cls is None or not info.params:
            return
        if self.alone_depth != self.depth:
            return
        receiver = unwrap(st.env.get(info.params[0][0], OPAQUE))
        if type(receiver) is Module and receiver.place is Place.DEVICE and \
                type(value) is Tensor and value.place is Place.HOST and not value.scalar and \
                value.why in ("attr", "factory"):
            from devlint.lint.model.observations import Meeting, Side

            self.obs.meetings.append(Meeting("return", node, Side(node, value),
                                             Side(None, receiver), self.where(st), None))

    def yielded(self, node: cst.Yield, st: State) -> Value:
        if node.value is not None:
            value = self.value(node.value, st)
            if type(node.value) is cst.From:
                value = self.element_of(value, node)
            self.frame.yields.append(value)
        return OPAQUE

    # --- binding ----------------------------------------------------------------------------

    def bind(self, target: Any, value: Value, st: State, statement: Any, entry: Optional[State] = None) -> None:
        """`target = value`: names, unpacking, attributes and subscripts."""
        kind = type(target)
        if self.frame.crashed_tests and kind in (cst.Name, cst.Attribute):
            self.forget_tests(target.value if kind is cst.Name else target.attr.value)
        if kind is cst.Name:
            value = unwrap(value)
            old = unwrap(st.env.get(target.value)) if target.value in st.env else None
            if type(old) is Device and id(old.node) in self.devices_unread and old is not value:
                # `device = torch.device("cuda")`, bound over (`device = torch.device(
                # 'cuda:{}'.format(args.gpus) if ... else 'cpu')`) before anything read it
                self.devices_overwritten.add(id(old.node))
            if type(value) is Device and value.node is not None:
                self.devices_unread.add(id(value.node))
                if self.frame.function is not None and target.value in self.frame.function.locals:
                    self.local_devices.add(id(value.node))
            if type(value) is Opaque and not value.name:
                value = Opaque(target.value)  # conventions read the name it is known by
            st.env[target.value] = self.named(target.value, value, statement, entry or st)
        elif kind in (cst.Tuple, cst.List):
            elements = [e for e in target.elements]
            value = unwrap(value)
            for position, element in enumerate(elements):
                if type(element) is cst.StarredElement:
                    self.bind(element.value, Seq("list", None, _element_value(value)), st, statement, entry)
                    continue
                self.bind(element.value, _unpack(value, position, len(elements)), st, statement, entry)
        elif kind in (cst.Attribute, cst.Subscript):
            self.store(target, unwrap(value), st, statement)
        elif kind is cst.StarredElement:
            self.bind(target.value, value, st, statement, entry)

    def named(self, name: str, value: Value, statement: Any, before: State) -> Value:
        """A value getting a name: batches remember where (a fix moves them right there), and a
        batch rebinding a name that was moved before the loop remembers that move (DEV003)."""
        if type(value) is Tensor and value.why in ("batch", "moved") and statement is not None:
            premoved = value.premoved
            if value.why == "batch" and type(statement) is cst.For:
                # Seen on the first pass of the loops around (later passes join it away).
                key = (id(statement), name)
                premoved = self.early_moves.get(key) or _early_move(before.env.get(name), statement,
                                                                    self.loop_nodes())
                if premoved is not None:
                    self.early_moves[key] = premoved
            if value.why == "batch" and type(statement) is cst.SimpleStatementLine:
                self.bound_here(statement, before)  # a batch fix goes right after it
            moved_by = (statement, self.loop_nodes()) if value.why == "moved" else None
            return replace(value, bound=(name, statement, self.loop_nodes()), premoved=premoved,
                           moved_by=moved_by)
        if type(value) is Seq and value.kind == "dict" and statement is not None and \
                type(value.element) is Tensor and value.element.why == "moved":
            moved = replace(value.element, moved_by=(statement, self.loop_nodes()))
            return replace(value, element=moved)
        return value

    def loop_nodes(self) -> tuple:
        return tuple(frame.info.node for frame in self.frame.loops)

    def fixed_bindings(self) -> tuple:
        """`_fixed_bindings` of this file's module, read once."""
        known = getattr(self, "_fixed", None)
        if known is None:
            known = self._fixed = _fixed_bindings(self.module)
        return known

    def forget_tests(self, word: str) -> None:
        """A name or attribute bound again: a test that reads it may now go either way."""
        for known, (_, _, words) in list(self.frame.crashed_tests.items()):
            if word in words:
                del self.frame.crashed_tests[known]

    def store(self, target: Any, value: Value, st: State, statement: Any = None) -> None:
        """`obj.attr = value`, `obj[key] = value`, or an in-place change of `obj` itself."""
        kind = type(target)
        if self.frame.crashed_tests and kind is cst.Attribute:
            self.forget_tests(target.attr.value)
        if kind is cst.Name:
            if target.value in st.env or self.frame.function is None or target.value in self.frame.function.locals:
                st.env[target.value] = value
            return
        if kind is cst.Attribute:
            owner = self.value(target.value, st)
            attr = target.attr.value
            if attr == "data" and type(owner) is Tensor and type(value) is Tensor:
                # `input.data = input.data.cuda()`: the tensor's storage is replaced, so the
                # tensor is where the new data is (the legacy `Variable` idiom)
                self.store(target.value, replace(owner, place=value.place, device=value.device,
                                                 why="moved" if value.place is Place.DEVICE else owner.why,
                                                 moved_at=value.moved_at), st)
                return
            if type(owner) in (Module, Tensor):
                self.note_attach(target, owner, value, st)
            elif type(target.value) in (cst.Attribute, cst.Subscript):
                self.note_part_attach(target, value, st)
            if type(owner) is Module and owner.place is Place.DEVICE and type(value) is Module and \
                    value.place is Place.HOST and holds_nothing(value):
                # `model.heads = nn.ModuleList()` after the move: nothing in it to move, and
                # what is appended later goes into a container of the moved model
                value = replace(value, place=Place.DEVICE, device=owner.device)
            if type(owner) in (Opaque, Namespace, ProjectModule) and type(target.value) is cst.Name:
                # `args.device = torch.device(...)`, `cfg.device = ...` on an imported project
                # module: the attribute holds it from here on.
                st.env[f"{target.value.value}.{attr}"] = value
                return
            if type(owner) is Instance and any(c is owner.cls for c in self.autograd_contexts.values()):
                self.autograd_kept.setdefault(owner.ident, {})[attr] = value  # read by `backward`
            if type(owner) is Module and owner.cls is not None and owner.cls.overrides_move() and \
                    type(unwrap(value)) in (Device, Tensor) and attr in _assigned_by_move(owner.cls):
                # `self._device = torch.device("cpu")` in `__init__` of a module whose own
                # `_apply` sets `self._device = fn(torch.zeros(1)).device`: the device it was
                # moved to, which the object's move decides, not its construction
                value = OPAQUE  # (no name: a name like `device` would read as the device)
            if type(owner) in (Module, Instance):
                if type(owner) is Module and owner.cls is not None:
                    self.note_container(owner, attr, value, statement)
                    value = self.plain_attribute(owner, attr, value, statement)
                self.store(target.value, owner.with_attr(attr, value), st)
            return
        if kind is cst.Subscript:
            owner = self.value(target.value, st)
            keys = [self.value(element.slice.value, st) for element in target.slice
                    if type(element.slice) is cst.Index]
            if len(target.slice) == 1 and len(keys) == 1 and _index_put(owner, keys[0], value):
                # `grad_in[window] = grad_out[window] / 2` into a CPU tensor: a tensor index (or
                # mask) makes it `index_put_`, which moves the index where the tensor is but not
                # the values (`cpu[mask] = 1`, a number, and `cpu[0:2] = t`, a copy, are fine)
                self.meet("index", target, [(target.value, owner), (None, value)], st, host=host_input)
            if type(owner) in (Module, Tensor):  # `model.classifier[6] = nn.Linear(...)`
                self.note_attach(target, owner, value, st)
            elif type(target.value) in (cst.Attribute, cst.Subscript):
                self.note_part_attach(target, value, st)
            changed = [target.value]
            if type(target.value) is cst.Name and target.value.value in self.loop_aliases:
                changed += [cst.Name(alias) for alias in self.loop_aliases[target.value.value]]
            for name in changed:
                owner = unwrap(self.value(name, st)) if name is not target.value else owner
                if type(owner) is Seq:
                    grown = Seq(owner.kind, None, join(owner.element, value) if owner.items != () else value,
                                node=owner.node)
                    self.store(name, grown, st)
                elif type(owner) is Instance and owner.attrs and name is target.value and \
                        not any(type(e.slice) is cst.Index and string_value(e.slice.value) is not None
                                for e in target.slice):
                    # `self[key] = func(item)` in a graph class's `apply` (its `__setitem__` sets
                    # the attribute named `key`): any tensor attribute may now hold the new value
                    held = value if type(unwrap(value)) is Tensor else OPAQUE  # (not a None)
                    self.store(name, replace(owner, attrs=tuple(
                        (a, join(v, held) if type(unwrap(v)) is Tensor else v) for a, v in owner.attrs)), st)
                elif type(owner) is Tensor and not owner.plain and type(value) is Tensor and \
                        value.place is Place.DEVICE:
                    self.store(name, replace(owner, place=Place.DEVICE, why="moved"), st)
                elif type(owner) is Tensor and owner.why == "batch" and type(value) is Tensor and \
                        value.place is Place.DEVICE:
                    # `images[0], images[1] = images[0].to(device), ...` on a part of the batch:
                    # a list of tensors (a collate of pairs) now holds device ones, a tensor
                    # would have copied them back; which it is, devlint does not know
                    self.store(name, replace(owner, place=Place.UNKNOWN, why="data", bound=None), st)
            root = target.value
            while type(root) is cst.Subscript:
                root = root.value
            if root is not target.value and type(root) is cst.Name and type(value) is Tensor and \
                    value.place is Place.DEVICE:
                # `data_dict[key][j] = data_dict[key][j].cuda()` over a batch of lists: the
                # batch's items are moved where the batch is kept
                whole = unwrap(self.value(root, st))
                if type(whole) is Tensor and not whole.plain and whole.why == "batch":
                    self.store(root, replace(whole, place=Place.DEVICE, why="moved"), st)

    def note_part_attach(self, target: Any, value: Value, st: State) -> None:
        """`model.encoder.layer[11].adapter = nn.Linear(...)` on a model of a library's class,
        whose parts devlint does not know (a module of no class of this file, or an object the
        code moved whole): the module goes into the model the chain starts from."""
        root = target.value
        while type(root) in (cst.Attribute, cst.Subscript):
            root = root.value
        if type(root) is cst.Name:
            owner = unwrap(st.env.get(root.value, OPAQUE))
            if (type(owner) is Module and owner.cls is None) or \
                    (type(owner) is Tensor and not owner.plain and owner.why == "moved"):
                self.note_attach(target, owner, value, st)

    def plain_attribute(self, owner: Module, attr: str, value: Value, statement: Any) -> Value:
        """`self.mean = torch.tensor(...)` in `__init__`: a plain attribute, which
        `model.to(device)` leaves on the CPU (DEV010). Also one computed there from the module's
        own plain attributes (`self.mask = (self.out_deg[:, None] >= self.in_deg).float()`): the
        attribute that meets the module's tensors is the new one."""
        info = self.frame.function
        if type(value) is Tensor and value.why in ("factory", "attr") and info is not None and \
                (self.building(info, owner.cls) or _framework_hook(info)) and not owner.cls.overrides_move():
            # set in a hook the trainer runs after its move (`on_fit_start`): a buffer registered
            # there would stay on the CPU too
            after_move = _framework_hook(info) and info.name not in BUILD_HOOKS
            if _placeholder(value) and _filled_later(owner.cls, attr):
                # `self._last = torch.empty(1)`, replaced by `forward` with its input, or
                # `self.prototypes = torch.tensor(())`, filled by `process_support_set`: a
                # placeholder whose values nobody reads before that, wherever it is
                return replace(value, place=Place.UNKNOWN)
            return replace(value, why="attr", attr=(owner.cls, attr, statement, after_move))
        return value

    def building(self, info: FuncInfo, cls: ClassInfo) -> bool:
        """`info` runs while an object of `cls` is built: it is `__init__`, or the module's
        `reset_parameters` (torch's own modules build their state there) that `__init__` calls."""
        if info.name == "__init__":
            return True
        return info.name in RESETS and info.cls is not None and (any(
            f.function is not None and f.function.name == "__init__" and f.function.cls in cls.mro()
            for f in self.frames) or any(built in cls.mro() for built in self.layer_builds))

    def rebind_alias(self, ident: int, moved: Value, st: State) -> None:
        """A module moved in place: every name (and attribute of a name) holding it moves too."""
        for name, value in list(st.env.items()):
            value = unwrap(value)
            if type(value) is Module and value.ident == ident and value is not moved:
                st.env[name] = replace(moved, attrs=value.attrs if moved.cls is None else moved.attrs)
            elif type(value) in (Module, Instance):
                for attr, inner in value.attrs:
                    if type(inner) is Module and inner.ident == ident and inner is not moved:
                        st.env[name] = value.with_attr(attr, moved)

    def note_container(self, owner: Module, attr: str, value: Value, statement: Any) -> None:
        """`self.layers = [nn.Linear(...), ...]` in a module: a plain list of submodules."""
        if type(value) is Seq and value.kind in ("list", "dict") and value.node is not None and \
                _holds_modules(value) and not self.registered_view(owner, value.node) and \
                not _moves_container(owner.cls, attr) and self.made_here_unregistered(owner, value):
            # the last assignment is the live one: a finding and its fix land there
            owner.cls.containers[attr] = ModuleContainer(owner.cls, attr, value.node, statement)
            self.container_nodes[id(value.node)] = (owner.cls, attr)
        elif type(unwrap(value)) is Module:  # replaced by a registered module (`nn.ModuleList`)
            owner.cls.containers.pop(attr, None)

    def made_here_unregistered(self, owner: Module, seq: Seq) -> bool:
        """Whether the list holds a module this function made and registered nowhere else. A
        module that came in as an argument belongs to the caller, who may register it (DGMG
        hands its `graph_embed` to helpers that keep it in a list); one also set as an attribute
        of this module (`self.act = act; self.acts = [act]`) is registered already."""
        callers = [f.function.node for f in self.frames
                   if f.function is not None and f.function.node is not None
                   and f.function is not self.frame.function]
        # (an attribute set on one path only, `if num_classes > 0: self.cls_head = ...`, is
        # registered where it is set)
        attributes = [unwrap(v) for _, v in owner.attrs]
        registered = {v.ident for v in attributes if type(v) is Module and v.ident}
        for item in _modules_in(seq):
            if not item.ident or item.ident in registered:
                continue  # registered already, or modules of several origins joined: unknown
            if item.node is None or self.frame.function is None:
                return True
            if type(item.node) is cst.ClassDef:
                continue  # the object a caller's method runs on (`BaseEncoder(self)` keeps its owner)
            if any(id(item.node) in self._nodes_of(node) for node in callers):
                continue  # made by the code that called this one, and handed in
            if self.frames and self.frames[0].function is None and \
                    id(item.node) in self._top_level_nodes():
                continue  # made by the script's own top-level code (a notebook's cell), handed in
            if item.assumed:
                continue  # a module this file never saw made
            return True
        return False

    def _top_level_nodes(self) -> frozenset:
        """The nodes of the module's own statements, outside its functions and classes."""
        found = self._node_sets.get(id(self.module))
        if found is None:
            found = self._node_sets[id(self.module)] = frozenset(
                id(n) for stmt in self.module.body
                if type(stmt) not in (cst.FunctionDef, cst.ClassDef) for n in walk(stmt))
        return found

    def _nodes_of(self, node: Any) -> frozenset:
        found = self._node_sets.get(id(node))
        if found is None:
            found = self._node_sets[id(node)] = frozenset(id(n) for n in walk(node))
        return found

    @staticmethod
    def registered_view(owner: Module, node: Any) -> bool:
        """`[layer[0] for layer in self.module_list if ...]`: a list that picks submodules out
        of a registered `nn.ModuleList` (or `self.modules()`) only names modules that `.to()`
        already moves."""
        if type(node) not in (cst.ListComp, cst.DictComp):
            return False
        source = node.for_in.iter
        if type(source) is cst.Call and dotted(source.func) in ("zip", "enumerate"):
            # `[(mul, act) for mul, act in zip(self.irreps, self.acts)]`: pairs with the modules
            # of a registered `nn.ModuleList`
            return any(_registered_source(owner, arg.value) for arg in source.args)
        return _registered_source(owner, source)

    def note_handed(self, args: list, kwargs: dict) -> None:
        """A plain list of submodules handed to code that registers it (`nn.ModuleList(losses)`
        in the `__init__` of `MultiLoss(self.loss_modules)`), or to code devlint cannot read,
        which may: its modules are, or may be, registered."""
        for _, value in list(args) + list(kwargs.values()):
            value = unwrap(value)
            if type(value) is Seq and value.node is not None:
                known = self.container_nodes.get(id(value.node))
                if known is not None:
                    known[0].wrapped.add(known[1])

    def note_wrapped(self, name: str) -> None:
        info = self.frame.function
        if info is not None and info.cls is not None and name.count(".") == 1:
            info.cls.wrapped.add(name.split(".", 1)[1])

    # --- what the rules ask ----------------------------------------------------------------

    def bound_here(self, node: Any, st: State) -> None:
        """Remember the names bound here on every path (a fix at this node may use them); the
        same node seen in several contexts keeps what all of them bind."""
        function = self.frame.function
        # a function of another file sees that file's globals, not this one's
        globals_ = {} if function is None else (
            function.owner.module_env if function.owner is not None and function.owner is not self
            else self.module_env)
        if len(st.env) + len(globals_) > MAX_BOUND_NAMES:
            # a generated file of thousands of names: remembering them at every node grows with
            # names x nodes (GBs); a fix there may use no name, so none is offered
            self.bound_at[id(node)] = frozenset()
            return
        names_here = st.bound()
        if self.frame.closure:
            names_here |= frozenset(self.frame.closure)
        names_here |= frozenset(k for k, v in globals_.items() if type(v) is not Maybe)
        known = self.bound_at.get(id(node))
        self.bound_at[id(node)] = names_here if known is None else known & names_here

    def loop_info(self, node: Any, iterated: Optional[Value]) -> LoopInfo:
        info = self.loops.get(id(node))
        if info is None:
            trains, binds, offloads, runs = _loop_facts(node)
            info = LoopInfo(node, trains, binds, offloads, runs)
            self.loops[id(node)] = info
        if type(iterated) is Iterable and iterated.loader:
            info.trains = True
        return info

    def in_test(self) -> bool:
        return self.test_depth > 0

    _statements: dict = {}


Interpreter._statements = {
    cst.If: Interpreter.if_,
    cst.For: Interpreter.for_,
    cst.While: Interpreter.while_,
    cst.Try: Interpreter.try_,
    cst.TryStar: Interpreter.try_,
    cst.With: Interpreter.with_,
    cst.FunctionDef: Interpreter.function_def,
    cst.ClassDef: Interpreter.class_def,
    cst.Match: Interpreter.match_,
}


PATH_SETTING = re.compile(r"ckpt|checkpoint|path|file|weights", re.I)


def _tests_missing_file(test: Any) -> bool:
    """`if not os.path.exists(ckpt):`, `if not Path(ckpt).is_file():`: the arm that makes a
    file only when no earlier run left one. Also the arm taken when no file was named (`if
    args.ckpt is None:`, `if not cfg.checkpoint:`): it writes a stand-in, and every other run
    reads a file named from outside, written wherever that was."""
    if type(test) is cst.Comparison and len(test.comparisons) == 1:
        target = test.comparisons[0]
        unnamed = (type(target.operator) is cst.Is and type(target.comparator) is cst.Name and
                   target.comparator.value == "None") or \
            (type(target.operator) is cst.Equal and string_value(target.comparator) == "")
        return unnamed and _names_a_path_setting(test.left)
    if type(test) is not cst.UnaryOperation or type(test.operator) is not cst.Not:
        return False
    call = test.expression
    if type(call) in (cst.Name, cst.Attribute):
        return _names_a_path_setting(call)
    return type(call) is cst.Call and type(call.func) in (cst.Attribute, cst.Name) and \
        (call.func.attr.value if type(call.func) is cst.Attribute else call.func.value) in \
        ("exists", "isfile", "is_file")


def _names_a_path_setting(node: Any) -> bool:
    """`args.ckpt`, `cfg.checkpoint`, `weights_path`: a setting naming a file."""
    name = dotted(node) if type(node) in (cst.Name, cst.Attribute) else None
    return name is not None and PATH_SETTING.search(name.rsplit(".", 1)[-1]) is not None


class _Super(Value):
    __slots__ = ("info", "receiver")

    def __init__(self, info: ClassInfo, receiver: Value) -> None:
        self.info, self.receiver = info, receiver

    def __eq__(self, other: object) -> bool:
        return type(other) is _Super and other.info is self.info and other.receiver == self.receiver

    def __hash__(self) -> int:
        return hash((id(self.info), self.receiver))


class _TrainerSuper(Value):
    """`super()` in a method of a subclass of transformers' `Trainer`."""

    def __eq__(self, other: object) -> bool:
        return type(other) is _TrainerSuper

    def __hash__(self) -> int:
        return hash(_TrainerSuper)


class _LayerSuper(Value):
    """`super()` in a subclass of a torch layer (`nn.Linear`): `reset`, the method the layer's
    `__init__` builds its state with (`reset_parameters`), or None."""
    __slots__ = ("cls", "receiver", "reset")

    def __init__(self, cls: ClassInfo, receiver: Value, reset: Optional[str]) -> None:
        self.cls, self.receiver, self.reset = cls, receiver, reset

    def __eq__(self, other: object) -> bool:
        return type(other) is _LayerSuper and other.cls is self.cls and other.receiver == self.receiver

    def __hash__(self) -> int:
        return hash((id(self.cls), self.receiver))


_AUGMENTED = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.FloorDivideAssign: cst.FloorDivide,
    cst.ModuloAssign: cst.Modulo, cst.PowerAssign: cst.Power,
    cst.MatrixMultiplyAssign: cst.MatrixMultiply,
}


def parametrized_cuda(info: FuncInfo, name: str) -> Any:
    """`@pytest.mark.parametrize("device", ["cpu", "cuda"])`: the CUDA literal among the plain
    string values the test is run with (the run a machine without a GPU fails), or None."""
    if type(info.node) is not cst.FunctionDef:
        return None
    for decorator in info.node.decorators:
        call = decorator.decorator
        if type(call) is not cst.Call or not (dotted(call.func) or "").endswith("mark.parametrize"):
            continue
        if len(call.args) < 2 or string_value(call.args[0].value) is None:
            continue
        names_ = [n.strip() for n in string_value(call.args[0].value).split(",")]
        values = call.args[1].value
        if names_ != [name] or type(values) not in (cst.List, cst.Tuple):
            continue
        for element in values.elements:
            text = string_value(element.value)
            if text is not None and api.CUDA_LITERAL.match(text):
                return element.value
    return None


def metric_class(info: ClassInfo) -> bool:
    """A module class of this file that is a metric by its protocol: `update` and `compute`
    (torchmetrics' `Metric`, written by hand)."""
    return info.is_module and all(type(info.lookup(m)) is Func for m in ("update", "compute"))


def _proven_stateless(module: Module, info: ClassInfo) -> bool:
    """A module class of this file whose objects hold no parameters or buffers: no attribute
    `__init__` leaves is a submodule that holds state or a parameter (a plain value, even a
    tensor, is not moved by `.to()` anyway), its bases are this file's classes or torch's,
    and nothing in it registers state by hand. Losing one from `parameters()` or a move
    loses nothing (a wrapper of `nn.AvgPool1d`)."""
    if info.registers_by_hand or info.overrides_move() or info.containers or not info.bases_known():
        return False
    if any(state_calls(cls) for cls in info.mro()):
        return False
    called = None
    for attr, value in module.attrs:
        value = unwrap(value)
        if type(value) is Module and not value.stateless:
            return False
        if type(value) is Opaque:
            # `self.model = load_model(...)`, then `self.model(x)`: an object of unknown kind
            # that the class calls is a module, maybe with state (`self.kernel_size` is not)
            called = _called_attributes(info) if called is None else called
            if attr in called:
                return False
        if type(value) is Tensor and value.why == "param":
            return False
        if type(value) is Seq and next(_modules_in(value), None) is not None and \
                any(attr in cls.containers for cls in info.mro()):
            # a list of its own submodules; one of modules handed in (`self._parent =
            # [parent]`, the trick that hides the owner from `.to()`) is its caller's state
            return False
    return True


def _registered_source(owner: Module, source: Any) -> bool:
    """`self.blocks`, `self.blocks.children()`, `self.named_modules()`: modules `owner` registers."""
    while type(source) is cst.Call and type(source.func) is cst.Attribute:
        source = source.func.value
    if type(source) is cst.Name:
        return source.value == "self"
    if type(source) is cst.Attribute and type(source.value) is cst.Name and source.value.value == "self":
        return type(unwrap(owner.attr(source.attr.value) or OPAQUE)) is Module
    return False


def _called_attributes(info: ClassInfo) -> frozenset:
    """The attributes a class's code calls on `self` (`self.model(x)`), its bases' included."""
    found = set()
    for cls in info.mro():
        if cls.node is None:
            continue
        for node in walk(cls.node):
            if type(node) is cst.Call and type(node.func) is cst.Attribute and \
                    type(node.func.value) is cst.Name and node.func.value.value == "self":
                found.add(node.func.attr.value)
    return frozenset(found)


def _built_beside(module: Module, info: ClassInfo) -> Optional[Place]:
    """Where a module of a class of this file is made when `__init__` places every piece of its
    state beside what it was handed: on the device when all of it is there (its parameters made
    with `device=base.weight.device` of a moved layer, its submodules moved ones), unknown when
    some of it follows a module whose place is unknown and none is on the CPU (a LoRA wrapper of
    a layer drawn from a container); None (the CPU, as built) otherwise. Its bases are
    `nn.Module` and this file's classes (a torch layer's own weight is made on the CPU, out of
    sight), and it registers nothing by name (`register_buffer`, `add_module`, a list)."""
    if info.registers_by_hand or info.overrides_move() or info.containers or not info.bases_known():
        return None
    for cls in info.mro():
        for base in cls.bases:
            if type(base) is Ref and base.qualname not in api.MODULE_BASES:
                return None
    places = []
    for _, value in module.attrs:
        value = unwrap(value)
        if type(value) is Module and not value.stateless:
            places.append(value.place)
        elif type(value) is Tensor and value.why == "param":
            places.append(value.place)
        elif type(value) is Seq and next(_modules_in(value), None) is not None:
            return None
    if not places or any(place is Place.HOST for place in places):
        return None
    # (last: a walk of the class's code, once per class)
    if any(state_calls(cls) - {"Parameter"} for cls in info.mro()):
        return None
    return Place.DEVICE if all(place is Place.DEVICE for place in places) else Place.UNKNOWN


def holds_state(module: Module) -> bool:
    """The module built holds parameters or buffers of its own (what a move would move)."""
    return any(type(unwrap(v)) is Tensor and unwrap(v).why == "param" for _, v in module.attrs)


def trainer_hook_argument(info: FuncInfo, name: str) -> Optional[Value]:
    """What a trainer's hook is handed (`compute_loss(self, model, inputs)`): the model the
    trainer moved, and for `compute_loss`/`training_step` the batch it already moved."""
    moved_inputs = api.TRAINER_HOOKS.get(info.name)
    if moved_inputs is None or not trainer_class(info.cls):
        return None
    if name == "model":
        return Module(Place.DEVICE, info.node, spelled=name)
    if name == "inputs" and moved_inputs:
        return Tensor(Place.DEVICE, "input", info.node, plain=False, dict_like=True)
    return None


# Hooks the trainer runs on a framework module before it moves the module: where its layers and
# state are built (`configure_sharded_model`, the legacy hook) or set up. Not `configure_model`:
# Lightning runs it inside `strategy.tensor_init_context()`, which enters `with root_device`, so
# a tensor made there is made on the device, registered or not.
BUILD_HOOKS = frozenset({"setup", "configure_sharded_model"})


def _framework_hook(info: FuncInfo) -> bool:
    """A hook the trainer runs on a framework module (`setup`, `configure_model`, `on_fit_start`,
    `on_validation_epoch_start`): a tensor it sets on `self` without registering it is a plain
    attribute, which the trainer's move (before or after the hook) leaves on the CPU."""
    return info.cls is not None and info.cls.framework and (
        info.name in BUILD_HOOKS or api.FRAMEWORK_HOOKS.match(info.name) is not None)


# A LightningModule's hooks of one phase: Lightning runs them only when the module overrides
# that phase's step (`is_overridden("validation_step", model)`).
_PHASE_HOOK = re.compile(r"^on_(validation|test|predict)_\w+$|^(validation|test|predict)_epoch_end$")


def _phase_never_run(info: FuncInfo) -> bool:
    """`on_validation_epoch_end` of a LightningModule that defines no `validation_step`, in a
    hierarchy devlint reads to the framework's class: the trainer never runs that phase, so the
    hook is no path a run follows (a callback's hooks are left alone: they run beside any
    module)."""
    cls = info.cls
    matched = _PHASE_HOOK.match(info.name) if cls is not None and cls.framework and not cls.callback else None
    if matched is None:
        return False
    phase = matched.group(1) or matched.group(2)
    for klass in cls.mro():
        for base in klass.bases:
            if type(base) is Ref and not api.is_framework_module(base.qualname):
                return False  # a library's base may define the step
            if type(base) not in (Ref, Klass):
                return False
    return cls.lookup(f"{phase}_step") is None


def after_the_framework_move(info: Optional[FuncInfo]) -> bool:
    """A hook the trainer runs on a framework module once it has moved it (`on_fit_start`, not
    `setup`): a module the hook builds and stores on `self` is not moved by that move."""
    return info is not None and _framework_hook(info) and info.name not in BUILD_HOOKS


def runs_on_device(method: str) -> bool:
    """`forward`, and Lightning's `training_step`/`validation_step`/...: they see the module's
    tensors on its device."""
    return method == "forward" or method.endswith("_step")


def _is_module_base(base: Value) -> bool:
    if type(base) is Klass:
        return base.info.is_module
    if type(base) is Ref:
        q = base.qualname
        if q.startswith(("flax", "jax", "haiku", "equinox", "tensorflow", "keras", "mindspore",
                         "paddle", "mlx", "oneflow", "jittor", "megengine", "mxnet")):
            return False
        last = q.rsplit(".", 1)[-1]
        return last.endswith("Module") or last in api.MODULE_CONTAINERS or \
            api.is_framework_module(q) or last in ("PreTrainedModel", "ModelMixin") or \
            api.THIRD_PARTY_MODULES.match(q) is not None or api.is_module_class(q)
    return False


def _modules_in(seq: Seq) -> Iterator[Module]:
    for v in (seq.items if seq.items is not None else (seq.element,)):
        if type(v) is Module and not v.loss and not v.stateless:
            yield v
        elif type(v) is Seq:
            yield from _modules_in(v)


def _holds_modules(seq: Seq) -> bool:
    return next(_modules_in(seq), None) is not None


def _returned(returns: list) -> Value:
    """What a function returns, joined over its `return`s. Truth values are joined per world:
    `if not dist.is_initialized(): return False` then `return True` is False wherever there is
    no GPU (the second return is reached only where one is), not unknown."""
    values = [unwrap(v) for _, v in returns]
    if values and all(type(v) is Scalar for v in values) and len({v.text for v in values}) > 1:
        # `if torch.cuda.is_available(): return "cuda"` then `return "cpu"`: device strings
        # that differ by world, which only a Device can say (as a name bound so in two arms)
        named = [unwrap(device_string(v)) for v in values]
        if all(type(v) is Device for v in named):
            devices = _returned([(s, v) for (s, _), v in zip(returns, named)])
            if type(devices) is Device and devices.fallback:
                return devices
    if all(type(v) is Flag for v in values):
        def world(flags):
            flags = set(flags)
            return flags.pop() if len(flags) == 1 else None

        accel = world(v.accel for (s, _), v in zip(returns, values) if s.accel)
        cpu = world(v.cpu for (s, _), v in zip(returns, values) if s.cpu)
        return Flag(accel, cpu, availability=any(v.availability for v in values))
    if all(type(v) is Device for v in values):
        # `if torch.cuda.is_available(): return torch.device("cuda")` then `return
        # torch.device("cpu")`: each world gets what its returns give, as `a if c else b` does
        accel = [v for (s, _), v in zip(returns, values) if s.accel]
        cpu = [v for (s, _), v in zip(returns, values) if s.cpu]
        chosen, other = _join_all(accel), _join_all(cpu)
        if accel and cpu and type(chosen) is Device and type(other) is Device:
            return replace(chosen, cpu=other.cpu)
    return _join_all(values)


# The last names of the calls `needs_cuda_straight` looks for, to resolve only those.
_GPU_NEEDING_NAMES = frozenset(api.last(q) for q in api.CUDA_REQUIRING | api.DDP)
_GPU_CALLS = tuple(f"{name}(" for name in sorted(_GPU_NEEDING_NAMES))
_GPU_CALLS_BYTES = tuple(call.encode() for call in _GPU_CALLS)


def gpu_calls_in(text) -> Optional[bool]:
    """Whether a file's text (str or bytes) may call a function that needs a GPU by one of its
    names (`synchronize(`, `data_parallel(`; a screen: `init(` of `xinit(` passes too, and the
    walk decides): where none is written, no function of the file makes such a call, and
    `needs_cuda_straight` has nothing to walk for. None: no text."""
    if not text:
        return None
    calls = _GPU_CALLS_BYTES if isinstance(text, bytes) else _GPU_CALLS
    return any(call in text for call in calls)


def _module_items(node: Any, iterated: Value, value_of) -> tuple:
    """What to bind the target of `for m in d.values()` (`d.items()`, or a list display `for m
    in ms`) to, one CPU module at a time: the modules of a display of at most eight items that
    left some of them on the CPU and moved others. Nothing for any other loop. `iterated`: what
    the loop walks, already evaluated; `value_of` reads the dict of `d.values()`."""
    call = node if type(node) is cst.Call and type(node.func) is cst.Attribute and \
        not node.args and node.func.attr.value in ("values", "items") else None
    base = call.func.value if call is not None else node
    if type(base) not in (cst.Name, cst.Attribute):
        return ()
    seq = unwrap(value_of(base) if call is not None else iterated)
    if type(seq) is not Seq or not seq.items or len(seq.items) > 8 or \
            (call is not None and seq.kind != "dict") or (call is None and seq.kind == "dict"):
        return ()
    modules = [unwrap(v) for v in seq.items]
    if not all(type(m) is Module for m in modules) or \
            not any(m.place is Place.DEVICE for m in modules):
        return ()
    hosts = [m for m in modules if m.place is Place.HOST and not m.assumed and not m.stateless
             and not m.loss]
    if call is not None and call.func.attr.value == "items":
        return tuple(Seq("tuple", (Scalar(), m), join(Scalar(), m)) for m in hosts)
    return tuple(hosts)


def _join_all(values) -> Value:
    result = None
    for value in values:
        result = value if result is None else join(result, value)
    return unwrap(result) if result is not None else OPAQUE


def _unpack(value: Value, position: int, count: int) -> Value:
    kind = type(value)
    if kind is Seq:
        if value.items is not None and len(value.items) == count:
            return unwrap(value.items[position])
        return value.element
    if kind is Tensor:
        return replace(value, plain=True)  # `x, y = batch`: the tensors of a batch
    if kind is Module:
        return replace(value, cls=None, attrs=())
    if kind is Iterable and not value.loader:
        return value.element  # `a, b = (t.to(device) for t in pair)`: each is an element
    if kind is Opaque and value.name.startswith("<"):
        return value  # the parts of what a device-aware call made are device-aware too
    if kind is Opaque and not value.name:
        # `dtype, device = explicit_types(dtype, device)`: a part of what an unknown call
        # returned is unknown, not whatever its target's name says
        return UNPACKED
    if kind is Ref and value.qualname.startswith(api.HOST_ONLY_PREFIXES):
        return value  # `fig, ax = plt.subplots()`: each part is the library's object
    return OPAQUE


def _element_value(value: Value) -> Value:
    if type(value) in (Seq, Iterable):
        return value.element
    if type(value) is Tensor:
        return replace(value, plain=True)
    return OPAQUE


# CUDA calls that place nothing: seeding the GPU's generators, emptying its cache.
_CUDA_HOUSEKEEPING = frozenset({"manual_seed", "manual_seed_all", "seed", "seed_all", "empty_cache"})


def _housekeeping_only(body: Any) -> bool:
    """`if torch.cuda.is_available(): torch.cuda.manual_seed(seed)`: an arm that only seeds
    the GPU's generators or sets cuDNN's flags (or prints) chooses no device for anything."""
    if type(body) is not cst.IndentedBlock:
        return False
    for statement in body.body:
        if type(statement) is not cst.SimpleStatementLine:
            return False
        for small in statement.body:
            if type(small) is cst.Expr and type(small.value) is cst.Call:
                name = dotted(small.value.func) or ""
                if name == "print" or (name.startswith("torch.cuda.") and
                                       name.rsplit(".", 1)[-1] in _CUDA_HOUSEKEEPING):
                    continue
            if type(small) is cst.Assign and all(
                    (dotted(t.target) or "").startswith(("torch.backends.cudnn.", "cudnn."))
                    for t in small.targets):
                continue
            if type(small) is cst.Pass:
                continue
            return False
    return True


def _early_move(old: Optional[Value], loop: cst.For, enclosing: tuple) -> Any:
    """The statement that moved what a name held before this loop rebinds it to a batch: a move
    outside it, in the loops around it or none. (A move inside another loop, the training
    loop's `users = users.to(device)`, moved that loop's own batches, not this one's.)"""
    old = unwrap(old) if old is not None else None
    if type(old) is Seq and type(old.element) is Tensor:
        old = old.element
    if type(old) is Tensor and old.moved_by is not None:
        statement, loops = old.moved_by
        if loop not in loops and all(other in enclosing for other in loops):
            return statement
    return None


def _entered(value: Value) -> Value:
    return value if type(value) in (Module, Tensor) else OPAQUE


# What a failed CUDA call raises without a GPU (`RuntimeError`, `AssertionError: Torch not
# compiled with CUDA enabled`), and the handlers that catch it.
_CATCHING = frozenset({"Exception", "BaseException", "RuntimeError", "AssertionError"})
_EXITS = frozenset({"sys.exit", "exit", "quit", "os._exit"})


def _falls_back(node: Any) -> bool:
    """`try: _, idx = torch.sort(scores.cuda()) except: _, idx = torch.sort(scores)`: a handler
    catches what a CUDA call raises without a GPU and does the work the CPU way (it binds a name
    the `try` body binds), or passes on (`except: pass`, the value left where it was), neither
    raising again nor exiting: a machine without a GPU takes the handler instead of stopping.
    A handler that only logs the failure is no fallback: the run goes on without the result."""
    tried = _names_bound_in(node.body)
    for handler in node.handlers:
        kind = handler.type
        caught = [kind] if kind is None or type(kind) is not cst.Tuple else [e.value for e in kind.elements]
        if not any(t is None or (dotted(t) or "").rsplit(".", 1)[-1] in _CATCHING for t in caught):
            continue
        # the handler's simple statements; a compound one stands as None (neither pass nor exit)
        smalls = [small for statement in (handler.body.body if type(handler.body) is cst.IndentedBlock else ())
                  for small in (statement.body if type(statement) is cst.SimpleStatementLine else (None,))]
        if any(type(small) is cst.Raise or (type(small) is cst.Expr and type(small.value) is cst.Call
                                            and dotted(small.value.func) in _EXITS) for small in smalls):
            continue
        if all(type(small) in (cst.Pass, cst.Continue) for small in smalls) or \
                tried & _names_bound_in(handler.body):
            return True
    return False


def _names_bound_in(body: Any) -> set:
    """The plain names a block assigns (`_, idx = ...`), in its nested blocks too."""
    found: set = set()
    for sub in walk(body):
        kind = type(sub)
        if kind is cst.AssignTarget or kind is cst.AugAssign or kind is cst.AnnAssign:
            for name in walk(sub.target):
                if type(name) is cst.Name:
                    found.add(name.value)
    return found


def _first_statement(body: Any) -> Any:
    if type(body) is cst.IndentedBlock and body.body:
        return body.body[0]
    return None


def _widen(head: State, following: State) -> State:
    """What keeps changing becomes unknown: loops reach a fixpoint in a few passes."""
    env = {k: (v if head.env.get(k) == v else OPAQUE) for k, v in following.env.items()}
    return State(env, following.accel, following.cpu, following.sure, following.past)


def _targets(node: Any) -> list:
    if type(node) in (cst.Tuple, cst.List):
        return [e.value for e in node.elements]
    return [node]


def _self_node(frame: Frame) -> Any:
    info = frame.function
    if info is None or not info.params:
        return None
    return cst.Name(info.params[0][0])


def _statements(body: Any) -> Iterator[Any]:
    """Every statement of a function body, nested blocks included, not the bodies of nested
    functions and classes (the statements themselves are yielded)."""
    return _statements_in(body.body)


def _statements_in(statements: Any) -> Iterator[Any]:
    """Every statement of a list of statements, as `_statements` reads a body."""
    pending = list(reversed(statements))
    while pending:
        statement = pending.pop()
        yield statement
        kind = type(statement)
        if kind is cst.SimpleStatementLine:
            pending.extend(reversed(statement.body))
            continue
        if kind in (cst.FunctionDef, cst.ClassDef):
            continue
        for child in _blocks(statement):
            pending.extend(reversed(child))


def _blocks(statement: Any) -> Iterator[list]:
    """The statement lists a compound statement holds (if/elif/else, loops, try, with, match)."""
    kind = type(statement)
    if kind in (cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.ExceptHandler,
                cst.ExceptStarHandler, cst.MatchCase, cst.Else, cst.Finally):
        body = statement.body
        yield list(body.body) if type(body) is cst.IndentedBlock else list(body.body)
    if kind in (cst.If, cst.For, cst.While, cst.Try, cst.TryStar):
        orelse = statement.orelse
        if type(orelse) is cst.If:
            yield [orelse]
        elif orelse is not None:
            yield [orelse]
    if kind in (cst.Try, cst.TryStar):
        yield list(statement.handlers)
        if statement.finalbody is not None:
            yield [statement.finalbody]
    if kind is cst.Match:
        yield list(statement.cases)


def _yields(body: Any) -> bool:
    """A generator: `yield` as a statement or as the value of an assignment (`x = yield`)."""
    for statement in _statements(body):
        if type(statement) in (cst.Expr, cst.Assign, cst.AnnAssign, cst.AugAssign) and \
                type(getattr(statement, "value", None)) is cst.Yield:
            return True
    return False


def local_names(node: Any) -> frozenset:
    """The names a function binds anywhere in its body (they are local, as Python decides
    before the function runs), minus `global`/`nonlocal` ones. Statements only: a name bound
    inside an expression (a walrus) is rare enough to be read as a global."""
    if type(node) is cst.Lambda:
        return frozenset(p.name.value for p in node.params.params)
    found: set[str] = set()
    params = node.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        found.add(param.name.value)
    for star in (params.star_arg, params.star_kwarg):
        if type(star) is cst.Param:
            found.add(star.name.value)
    bound, declared = _bindings(_statements(node.body))
    return frozenset((found | bound) - declared)


def _bindings(statements: Any) -> tuple[set, set]:
    """The names the statements bind (assignments, loop and `with` targets, handlers, imports,
    functions and classes), and those they declare `global` or `nonlocal`."""
    found: set[str] = set()
    declared: set[str] = set()
    for item in statements:
        kind = type(item)
        if kind in (cst.FunctionDef, cst.ClassDef):
            found.add(item.name.value)
        elif kind in (cst.Global, cst.Nonlocal):
            declared.update(n.name.value for n in item.names)
        elif kind is cst.Assign:
            for target in item.targets:
                found.update(_bound_names(target.target))
        elif kind in (cst.AnnAssign, cst.AugAssign, cst.For):
            found.update(_bound_names(item.target))
        elif kind is cst.With:
            for with_item in item.items:
                if with_item.asname is not None:
                    found.update(_bound_names(with_item.asname.name))
        elif kind in (cst.ExceptHandler, cst.ExceptStarHandler) and item.name is not None:
            found.update(_bound_names(item.name.name))
        elif kind in (cst.Import, cst.ImportFrom) and type(item.names) is not cst.ImportStar:
            for alias in item.names:
                if alias.asname is not None:
                    found.update(_bound_names(alias.asname.name))
                else:
                    found.add((dotted(alias.name) or "").split(".", 1)[0])
    return found, declared


def _bound_names(target: Any) -> list:
    if type(target) is cst.Name:
        return [target.value]
    if type(target) in (cst.Tuple, cst.List):
        return [n for e in target.elements for n in _bound_names(e.value)]
    if type(target) is cst.StarredElement:
        return _bound_names(target.value)
    return []


def _loop_facts(node: Any) -> tuple[bool, frozenset, frozenset, frozenset]:
    """Whether a loop body trains, the names it binds or moves back to the CPU (or to two
    different devices, a round trip), and the objects
    it runs (`model(x, t)`, `model.generate(ids)`: called, or a method of theirs other than a
    move or a mode switch)."""
    trains = False
    binds: set[str] = set()
    offloads: set[str] = set()
    runs: set[str] = set()
    targets: dict = {}  # receiver -> the devices the loop moves it to
    if type(node) is cst.For:
        binds.update(_bound_names(node.target))
    for sub in walk(node.body):
        kind = type(sub)
        if kind is cst.Call and type(sub.func) is cst.Name:
            runs.add(sub.func.value)  # `model(x, t)`
        elif kind is cst.Call and type(sub.func) is cst.Attribute:
            method = sub.func.attr.value
            receiver = dotted(sub.func.value)
            if receiver:
                runs.add(f"{receiver}.{method}")  # `self.model(x)`
                if method not in _NOT_RUNNING:
                    runs.add(receiver)  # `model.generate(ids)`
            if method in api.TRAINING_METHODS:
                trains = True
            elif receiver and (method == "cpu" or (method == "to" and sub.args and
                                                   string_value(sub.args[0].value) == "cpu")):
                offloads.add(receiver)
            elif receiver and method in ("to", "cuda"):
                target = sub.args[0].value if sub.args else None
                targets.setdefault(receiver, set()).add(
                    (dotted(target) or string_value(target) or id(target)) if target is not None else "")
        elif kind is cst.Assign:
            if _moves_itself(sub):
                continue  # `model = model.to(device)` moves the model it had: no new model
            for target in sub.targets:
                binds.update(_bound_names(target.target))
                key = dotted(target.target)
                if key:
                    binds.add(key)
        elif kind in (cst.AugAssign, cst.AnnAssign):
            binds.update(_bound_names(sub.target))
        elif kind is cst.For:
            binds.update(_bound_names(sub.target))
    # a round trip: `net.to(actor_device)` to publish its state, `net.to(device)` back to train
    # (distributed_rl's learner): moving it somewhere else each time is the loop's purpose
    offloads.update(receiver for receiver, devices in targets.items() if len(devices) > 1)
    return trains, frozenset(binds), frozenset(offloads), frozenset(runs)


# A module's own methods that move it, set its mode or walk and change its parts: calling them
# does not run the model (`for m in model.modules(): m.adaptation(exp)`, then a move, is a
# model changed on every iteration, not one run on every iteration).
_NOT_RUNNING = frozenset({"to", "cuda", "cpu", "train", "eval", "half", "float", "double",
                          "bfloat16", "type", "requires_grad_", "zero_grad", "parameters",
                          "named_parameters", "buffers", "named_buffers", "modules",
                          "named_modules", "children", "named_children", "get_submodule",
                          "state_dict"}) | api.MODULE_BOOKKEEPING


# Module methods that return the module itself (`model.to(device).train()`).
_SELF_RETURNING = frozenset({"train", "eval", "float", "half", "double", "bfloat16", "requires_grad_"})


def _passed(info: FuncInfo, args: list, call: cst.Call) -> list:
    """(parameter, the expression the call passes to it) for each argument of `call`; `args`
    are the values bound, the receiver of a bound method first."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    skipped = len(args) - len(positional)  # the receiver of a bound method
    params = [p[0] for p in info.params]
    passed = [(params[index + skipped], arg.value) for index, arg in enumerate(positional)
              if 0 <= index + skipped < len(params)]
    return passed + [(arg.keyword.value, arg.value) for arg in call.args if arg.keyword is not None]


def _items_assigned(info: FuncInfo) -> frozenset:
    """The parameters a function assigns moved values into (`batch["x"] = batch["x"].cuda()`,
    `batch.update({k: v.to(device) ...})`), kept on the function's record."""
    if info.items_assigned is None:
        params = {p[0] for p in info.params}
        names = set()
        for sub in walk(info.node.body):
            if type(sub) is cst.Assign and contains_move(sub.value):
                names.update(t.target.value.value for t in sub.targets
                             if type(t.target) is cst.Subscript and type(t.target.value) is cst.Name)
            elif type(sub) is cst.Call and type(sub.func) is cst.Attribute and \
                    sub.func.attr.value == "update" and type(sub.func.value) is cst.Name and \
                    contains_move(sub):
                names.add(sub.func.value.value)
        info.items_assigned = frozenset(names & params)
    return info.items_assigned


def _moves_container(cls: ClassInfo, attr: str) -> bool:
    """Whether the class moves the container itself: its own `cuda`, `to` or `_apply` walks
    `self.<attr>` (EPyMARL's critics keep one network per agent in a plain list and override
    `cuda()`, `parameters()` and `state_dict()` to walk it)."""
    return cls.overrides_move() and any(
        type(sub) is cst.Attribute and sub.attr.value == attr and type(sub.value) is cst.Name and
        sub.value.value == owner for body, owner in _own_moves(cls) for sub in walk(body))


def _moves_itself(assign: cst.Assign) -> bool:
    """`model = model.to(device)`, also chained with a method that returns the module itself
    (`model = model.to(device).train()`): the model it had, moved, no new model."""
    value = assign.value
    if len(assign.targets) != 1:
        return False
    while type(value) is cst.Call and type(value.func) is cst.Attribute and \
            value.func.attr.value in _SELF_RETURNING and type(value.func.value) is cst.Call:
        value = value.func.value
    if type(value) is not cst.Call or type(value.func) is not cst.Attribute:
        return False
    return value.func.attr.value in ("to", "cuda") and \
        dotted(value.func.value) == dotted(assign.targets[0].target) is not None


def _moved_parameters(info: FuncInfo, args: list, returns: list) -> dict:
    """The module parameters a function leaves on the device on every return path, given on
    another place: param -> the moved module (same identity)."""
    moved: dict = {}
    if not returns or not info.params:
        return moved
    for position, (param, *_) in enumerate(info.params):
        given = unwrap(args[position]) if position < len(args) else None
        if type(given) is not Module or not given.ident or given.place is Place.DEVICE:
            continue
        held = [unwrap(s.env.get(param)) for s, _ in returns]
        if held and all(type(h) is Module and h.ident == given.ident and h.place is Place.DEVICE
                        for h in held):
            moved[param] = held[0]
    return moved


def _counts_or_loads(iterable: Any, iterated: Value, element: Value) -> bool:
    """A loop over a data loader or a `range(...)`: a training loop, the only loops whether
    the body ran matters to (a model moved in it); others are not worth reading further."""
    if type(iterable) is cst.Call and type(iterable.func) is cst.Name and iterable.func.value == "range":
        return True
    element = unwrap(element)
    return getattr(iterated, "loader", False) or (type(element) is Tensor and element.why == "batch") \
        or (type(element) is Seq and type(unwrap(element.element)) is Tensor and
            unwrap(element.element).why == "batch")


def _reads_first(statements: list) -> set:
    """The plain names the statements read before any of them binds them (a comprehension's
    own variables and walrus targets are no reads)."""
    read: set = set()
    assigned: set = set()
    for statement in statements:
        bound, declared = _bindings(_statements_in([statement]))
        stored = bound | declared | {n.value for sub in walk(statement)
                                     if type(sub) in (cst.CompFor, cst.NamedExpr)
                                     for n in walk(sub.target) if type(n) is cst.Name}
        read.update(n.value for n in walk(statement)
                    if type(n) is cst.Name and n.value not in assigned and n.value not in stored)
        assigned |= stored
    return read


def _never_empty(iterable: Any) -> bool:
    """`range(300)`, `range(1, 11)`, `[a, b]`, `("train", "val")`: written so that a loop over
    it runs its body at least once (numbers as literals, a display with an element)."""
    kind = type(iterable)
    if kind in (cst.List, cst.Tuple):
        return bool(iterable.elements) and not any(type(e) is cst.StarredElement
                                                   for e in iterable.elements)
    if kind is not cst.Call or type(iterable.func) is not cst.Name or iterable.func.value != "range" \
            or not 1 <= len(iterable.args) <= 2 or any(a.keyword or a.star for a in iterable.args):
        return False
    numbers = [a.value.evaluated_value if type(a.value) is cst.Integer else None
               for a in iterable.args]
    if None in numbers:
        return False
    start, stop = (0, numbers[0]) if len(numbers) == 1 else numbers
    return stop > start


def _display_names(node: cst.For) -> Optional[tuple]:
    """The names a loop walks when it walks a display of names (`for b in (batch, pf_batch):`):
    its target is each of their objects in turn."""
    items = node.iter.elements if type(node.iter) in (cst.Tuple, cst.List) else ()
    if type(node.target) is not cst.Name or not 0 < len(items) <= 8 or \
            any(type(item.value) is not cst.Name for item in items):
        return None
    return tuple(item.value.value for item in items)


def _origins(args: list, kwargs: dict) -> tuple:
    """Where the arguments that findings point back to were made: two plain tensor attributes
    of the same shape and place are equal values, but a mismatch inside the call is each one's
    own (`extract(self.alphas, t)`, then `extract(self.sigmas, t)`), so a call's memo tells them
    apart."""
    return tuple((id(value.node), value.attr[1] if value.attr is not None else None)
                 if type(value) is Tensor and value.why in ("attr", "factory", "cast") else None
                 for value in (*args, *kwargs.values()))


def _chooses_fallback(value: Value) -> bool:
    """A device with a CPU fallback (`cuda` with a GPU, `cpu` without), also as a field of
    what a helper returns (a config, a tuple of settings)."""
    value = unwrap(value)
    if type(value) in (Instance, Module):
        fields = [v for _, v in value.attrs]
    elif type(value) is Seq:
        fields = list(value.items or ())
    else:
        fields = [value]
    return any(type(unwrap(v)) is Device and unwrap(v).accel == "accel" and unwrap(v).cpu == "host"
               for v in fields)


def _starts_group(node: Any) -> bool:
    """`dist.init_process_group(...)`."""
    return type(node) is cst.Call and (dotted(node.func) or "").endswith("init_process_group")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _picks_gpus(target: Any, value: Any) -> bool:
    """`os.environ["CUDA_VISIBLE_DEVICES"] = <GPU ids>`; not `= ""` or `= "-1"`, which hide
    every GPU to run on the CPU."""
    if type(target) is not cst.Subscript or dotted(target.value) not in ("os.environ", "environ"):
        return False
    keys = [e.slice.value for e in target.slice if type(e.slice) is cst.Index]
    if len(keys) != 1 or string_value(keys[0]) != "CUDA_VISIBLE_DEVICES":
        return False
    text = string_value(value)
    return text is None or text.strip() not in ("", "-1")


MOVE_OVERRIDES = ("_apply", "to", "cuda")  # a class that defines one moves itself


def _base_move(value: Any) -> bool:
    """`super().cuda(device)`, `super().to(*args, **kwargs)`: the base class's move of `self`."""
    return type(value) is cst.Call and type(value.func) is cst.Attribute and \
        value.func.attr.value in MOVE_OVERRIDES and type(value.func.value) is cst.Call and \
        dotted(value.func.value.func) == "super"


def _own_moves(cls: ClassInfo) -> Iterator[tuple[Any, str]]:
    """(body, name of its `self`) of each of the class's own `_apply`, `to` and `cuda`."""
    for name in MOVE_OVERRIDES:
        method = cls.lookup(name)
        if type(method) is Func and type(method.info.node) is cst.FunctionDef and method.info.params:
            yield method.info.node.body, method.info.params[0][0]


def _assigned_by_move(cls: ClassInfo) -> frozenset:
    """The attributes the class's own `_apply`, `to` or `cuda` assigns on its object."""
    return frozenset(attr for body, owner in _own_moves(cls) for attr in _assigned_attributes(body, owner))


def _fixed_bindings(module: Any) -> tuple:
    """({global name: literal}, {(id(class node), attribute): literal}) of a module: names its
    module scope binds once (`_bindings`), to a string or integer literal, that no function
    declares `global`; and attributes a class's `__init__` sets, in a statement of its own
    body, to such a literal, which no other code of the module assigns (`_init_constants`)."""
    counts: dict = {}
    for statement in _statements_in(module.body):
        for name in _bindings([statement])[0]:
            counts[name] = counts.get(name, 0) + 1
    declared = {item.name.value for node in walk(module) if type(node) is cst.Global
                for item in node.names}
    names: dict = {}
    for statement in module.body:
        if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
            continue
        assign = statement.body[0]
        if type(assign) is cst.Assign and len(assign.targets) == 1 and \
                type(assign.targets[0].target) is cst.Name:
            name = assign.targets[0].target.value
            value = literal_value(assign.value)
            if value is not None and counts.get(name) == 1 and name not in declared:
                names[name] = value
    return names, _init_constants(module)


def _init_constants(module: Any) -> dict:
    """{(id(class node), attribute): literal} of the attributes a class's `__init__` sets to a
    literal, in a statement of its own body, where no other method of the class, of a class
    related to it by a base named in the module, or any other code (`obj.x = ...`) assigns
    them; none in a module that sets attributes by name (`setattr`, `__dict__`, `vars()`)."""
    assigned: dict = {}  # id(an attribute assignment target) -> its attribute
    for node in walk(module):
        kind = type(node)
        if kind in (cst.Assign, cst.AugAssign, cst.AnnAssign):
            for target in [t.target for t in node.targets] if kind is cst.Assign else [node.target]:
                assigned.update((id(sub), sub.attr.value) for sub in walk(target)
                                if type(sub) is cst.Attribute)
        elif kind is cst.Name and node.value in ("setattr", "vars", "__dict__") or \
                kind is cst.Attribute and node.attr.value == "__dict__":
            return {}
    classes = [node for node in walk(module) if type(node) is cst.ClassDef and
               type(node.body) is cst.IndentedBlock]
    owned = {id(cls): _own_assignments(cls, assigned) for cls in classes}
    anywhere = set(assigned.values())  # what is left: assignments of no class's own
    bases = {id(cls): {last_part(dotted(base.value) or "") for base in cls.bases} for cls in classes}
    found: dict = {}
    for cls in classes:
        related = [other for other in classes if other is not cls and (
            other.name.value in bases[id(cls)] or cls.name.value in bases[id(other)])]
        for attribute, values in owned[id(cls)].items():
            if len(values) == 1 and values[0] is not None and attribute not in anywhere and \
                    not any(attribute in owned[id(other)] for other in related):
                found[(id(cls), attribute)] = values[0]
    return found


def _own_assignments(cls: Any, assigned: dict) -> dict:
    """{attribute: [the literal each assignment sets, or None]} of `self.x = ...` in the class's
    methods (to their first parameter); a literal only in a statement of `__init__`'s own body.
    Each one found is taken out of `assigned`, which keeps the other assignments."""
    mine: dict = {}
    for method in cls.body.body:
        if type(method) is not cst.FunctionDef or not method.params.params:
            continue
        receiver = method.params.params[0].name.value
        top = {id(line.body[0]) for line in method.body.body
               if type(line) is cst.SimpleStatementLine and line.body} \
            if method.name.value == "__init__" else set()
        for node in walk(method.body):
            if type(node) is not cst.Assign:
                continue
            for target in (t.target for t in node.targets):
                if type(target) is cst.Attribute and type(target.value) is cst.Name and \
                        target.value.value == receiver and id(target) in assigned:
                    del assigned[id(target)]
                    literal = literal_value(node.value) if id(node) in top else None
                    mine.setdefault(target.attr.value, []).append(literal)
    return mine


def test_key(test: Any) -> Optional[tuple]:
    """(a key, the words it reads) of a simple condition: a name or attribute chain, `not` one,
    or one comparison of such chains and literals (`self.relation_layers_num != 0`); None for
    anything else (a call may answer differently each time)."""
    words: list = []

    def operand(node: Any) -> Optional[str]:
        if type(node) in (cst.Integer, cst.Float, cst.SimpleString) or is_none_literal(node):
            return node.value if hasattr(node, "value") else "None"
        name = dotted(node) if type(node) in (cst.Name, cst.Attribute) else None
        if name is not None:
            words.extend(name.split("."))
        return name

    negated = type(test) is cst.UnaryOperation and type(test.operator) is cst.Not
    bare = test.expression if negated else test
    if type(bare) is cst.Comparison and len(bare.comparisons) == 1:
        left, right = operand(bare.left), operand(bare.comparisons[0].comparator)
        if left is None or right is None or not words:
            return None
        key: Any = (left, type(bare.comparisons[0].operator).__name__, right)
    else:
        key = operand(bare)
        if key is None:
            return None
    return (negated, key), frozenset(words)


def _assigned_attributes(function: Any, owner: str) -> set:
    """The attributes of `owner` (`self`) that `function` assigns: `self.x = ...`; in a move
    override, also those of the name bound to the base's move of it (`cuda_self =
    super().cuda(device)`, then `cuda_self.anchors = ...`: LaneATT), which is `self`."""
    owners = {owner} | {node.targets[0].target.value for node in walk(function)
                        if type(node) is cst.Assign and len(node.targets) == 1 and
                        type(node.targets[0].target) is cst.Name and _base_move(node.value)}
    found = set()
    for node in walk(function):
        targets = [t.target for t in node.targets] if type(node) is cst.Assign else \
            [node.target] if type(node) in (cst.AnnAssign, cst.AugAssign) else []
        for target in targets:
            if type(target) is cst.Attribute and type(target.value) is cst.Name and \
                    target.value.value in owners:
                found.add(target.attr.value)
    return found


def _default(name: str, value: Value) -> Value:
    """A parameter's default: `device="cuda"` is the caller's to override, not a choice."""
    if type(value) is Scalar and value.text and api.DEVICE_LITERAL.match(value.text) or \
            type(value) is Device and value.accel == "accel" and value.node is not None:
        # (`device: torch.device = torch.device("cuda")`, keyword-only too)
        return Device("accel", None, None, spelled=name)
    choice = names.device_flag(name)
    if choice is not None and type(value) in (Scalar, Flag):
        # `use_gpu=True`: the default of a device flag is the caller's to override, and a
        # caller on a machine without a GPU passes the CPU's choice
        return Flag(choice, not choice)
    return value


def _gpu_marker(decorator: Any) -> bool:
    """`@requires_cuda`, `@gpu_test(gpu_count=1)`, `@RunIf(min_cuda_gpus=1)`,
    `@ray.remote(num_gpus=1)`: the code runs only where a GPU is."""
    target = decorator.func if type(decorator) is cst.Call else decorator
    if names.CUDA_PURPOSE.search((dotted(target) or "").rsplit(".", 1)[-1]):
        return True
    return type(decorator) is cst.Call and any(
        a.keyword is not None and names.CUDA_PURPOSE.search(a.keyword.value) and
        not (type(a.value) is cst.Integer and a.value.value == "0") for a in decorator.args)


def _called_by_others(functions: list) -> set:
    """The module-level functions among `functions` whose name another of them holds."""
    named = {info.name: info for info in functions if info.cls is None}
    if len(functions) < 2 or not named:
        return set()
    called = set()
    for info in functions:
        for sub in walk(info.node):
            if type(sub) is cst.Name and sub.value in named and named[sub.value] is not info:
                called.add(id(named[sub.value]))
    return called


def _identifiers(node: Any) -> Iterator[str]:
    """The names, attribute names and string values a function's code holds."""
    for sub in walk(node):
        kind = type(sub)
        if kind is cst.Name:
            yield sub.value
        elif kind is cst.SimpleString:
            yield sub.value


def _annotation(node: Any) -> str:
    """A parameter's annotation as a qualname: `torch.Tensor`; for a written type that is not a
    name, the tensor type it names (`Optional[Tensor]` -> `Tensor`), else `?`: annotated, and
    not as a tensor (`int | None`)."""
    spelled = dotted(node)
    if spelled is not None:
        return spelled
    for sub in walk(node):
        if type(sub) in (cst.Name, cst.Attribute):
            name = dotted(sub)
            if name is not None and name.rsplit(".", 1)[-1] in api.TENSOR_ANNOTATIONS:
                return name
    return "?"


def _distributed_switch(test: Any) -> Optional[bool]:
    """`args.distributed`, `train_config.enable_fsdp`, `use_ddp`: True (the first arm is the
    multi-process one); `not args.distributed`: False; any other test (`rank == 0`,
    `world_size > 1`): None."""
    negated = False
    while type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        test, negated = test.expression, not negated
    name = test.value if type(test) is cst.Name else test.attr.value if type(test) is cst.Attribute else None
    if name is None or names.DISTRIBUTED_SWITCH.search(name) is None:
        return None
    return not negated
