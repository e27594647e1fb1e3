from __future__ import annotations

import re
from typing import Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Fix, RawFinding
from devlint.lint.model import Model
from devlint.lint.model.observations import Load, Save
from devlint.lint.model.values import OPAQUE, Opaque, Place, Scalar, Seq, Tensor, Value, unwrap
from devlint.lint.rules.base import Rule
from devlint.lint.rules.fixes import add_keyword_fix, code, first_device
from devlint.lint.syntax import dotted, keyword_arg, last_part, walk


# Where the file gives each rank a GPU of its own (`set_device`, `device_ids=[...]`, a device
# built from the rank, `LOCAL_RANK`): only then is cuda:0 another rank's GPU. The
# one-process-per-node ImageNet scripts put every process on its node's cuda:0 (`model.cuda()`,
# or `.cuda(args.gpu)` by hand, and `DistributedDataParallel(model)` over all local GPUs),
# where the checkpoint loads anyway.
RANK_GPU = re.compile(r"set_device\(|device_ids\s*=\s*(?!None)[\[(A-Za-z]|LOCAL_RANK|cuda:\{|cuda:%|"
                      r"[\"']cuda:[\"']\s*\+|\.cuda\(\s*[\w.]*rank|"
                      r"device\(\s*[\"']cuda[\"']\s*,")


class LoadWithoutMapLocation(Rule):
    code = "DEV008"
    name = "load-without-map-location"
    fix_kind = Applicability.SAFE
    summary = ("`torch.load` without `map_location` in code meant to run without a GPU too, "
               "or on every rank of a distributed job.")
    what = """
        Finds `torch.load(...)` with no `map_location` (keyword or second positional argument) in a
        file that chooses its device with a fallback (`torch.cuda.is_available()`), so the file is
        meant to run on a CPU-only machine as well: its own code chooses (or tests for a GPU
        before a CUDA call that places nothing, `if torch.cuda.is_available():
        torch.cuda.empty_cache()`, or builds a Lightning `Trainer` that falls back to the CPU:
        `accelerator="auto"`, the default, or `"cpu"`), or it keeps the device a
        helper of the project chose (`device = get_device()`); an imported evaluator's fallback for
        its own tensors says nothing of the file that calls it; and in a file that runs once per rank (it starts
        a process group or reads `LOCAL_RANK` before the load, on the path that reaches it: a
        function the file's single process calls beside a spawned worker is no rank's) and gives
        each rank a GPU of its own (`set_device`, `device_ids=[...]`, a device from the rank),
        where every rank loads onto the GPU that saved the checkpoint (cuda:0, rank 0's), its own checkpoints included, unless the file is the
        rank's own (its path is built from the rank). A file the run writes before it reads it back
        is its own, on its own device, unless it writes it only when it is missing (`if not
        os.path.exists(ckpt): train_teacher(...)`): then an earlier run, on a GPU, may have.
    """
    silent = """
        When the load sits under a test about the device, when the file saves to the same path
        itself (a checkpoint written and read by the same run lives on the run's own device; not
        under torchrun, where rank 0 writes what every rank reads), or when the run, before the
        load, saved to a path devlint cannot tell from the one it loads (`save_path =
        checkpoint_path(name)` given to an early-stopping object that saves the best weights,
        read back after the loop; `self._save_checkpoint("best.pth")`, which joins the name to
        a folder, before `torch.load("checkpoints/best.pth")`), under a test about the rank
        (`if rank == 0:`), in files that set `CUDA_VISIBLE_DEVICES` per process, for a file of
        each rank's own on every rank (`f"queue{rank}.pth"`: each rank wrote it from its own GPU),
        for a checkpoint of unknown origin in a project (project mode) that writes its modules'
        state from CPU tensors and nowhere straight from a module (BasicSR's and KAIR's
        `save_network` copy every tensor with `.cpu()` before `torch.save`: the weights they
        publish load anywhere), for the state of an LR scheduler (`scheduler.load_state_dict(torch.load(path))`: numbers,
        no tensors), for in-memory buffers, for a file this code downloads (`path =
        load_file_from_url(url)`, `hf_hub_download(...)`, or a file named the way torch.hub
        names a published one, its hash in the name: `models/vgg16-00b39a1b.pth`: a publisher's
        release weights, written for every user of the code, whose device devlint cannot know), for a load whose `except`
        handler loads again with `map_location` (the CPU's way in), and for the weights of a
        quantized model (under a test of a `quantized` flag, or read into a name saying so:
        PyTorch's eager quantized modules live on the CPU only), and past a CUDA placement that
        has stopped a machine without a GPU on every path to the load (`model.cuda()` the line
        before: DEV001's finding, and the load is never reached there). A finding needs a file that holds a device's
        state: one read into `load_state_dict` (also through `ckpt["model"]`), used as a module
        (`model = torch.load(f)`, then `model.eval()`), written by this code from device
        tensors, or named as a checkpoint (its path or the function reading it says `ckpt`,
        `checkpoint`, `resume`, `weights`, `model`, `state`, `.pth`, ...). A file read as data
        (`torch.cat([x, torch.load("embedding.pt")])`, a dataset's split or meta dict) says
        nothing about where its tensors were saved from.
    """
    why = """
        `torch.load` restores every tensor onto the device it was saved from. A checkpoint
        written on a GPU machine holds CUDA tensors, so loading it on a laptop or a CPU CI
        runner fails with "Attempting to deserialize object on a CUDA device but
        torch.cuda.is_available() is False", exactly on the machines the fallback was written
        for. Even on a GPU machine, every rank loading onto cuda:0 piles memory on one GPU.
    """
    bad = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        model.load_state_dict(torch.load("checkpoint.pt"))
        model.to(device)
    """
    good = """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 1)
        model.load_state_dict(torch.load("checkpoint.pt", map_location=device))
        model.to(device)
    """
    fix = """
        Add `map_location=device` (the device variable in reach), or `map_location='cpu'` when
        there is none: `load_state_dict` copies the tensors onto the model's device anyway.
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        every_rank = model.distributed and not model.visible_devices and \
            RANK_GPU.search(model.text) is not None
        if not model.meant_for_cpu and not every_rank:
            return
        reported: set[int] = set()
        restored: dict = {}  # id(module) -> the ids of its loads restored into a module
        groups: dict = {}  # (the function, every rank) -> its loads, in the model's order
        written: dict = {}  # id(module) -> the file names its saves write, read once
        for load in model.obs.loads:
            if id(load.node) in reported or not load.tensors:
                continue  # an LR scheduler's state: no tensor to restore anywhere
            if load.node.args and OPTIONS_FILE.search(code(load.node.args[0].value)):
                continue  # `training_args.bin`: a run's saved options, no tensor in them
            # (a load in another file's code, reached from here, is read in its own module)
            owner = load.where.function.owner if load.where.function is not None else None
            module = owner.module if owner is not None else model.module
            if id(module) not in restored:
                restored[id(module)] = restoring_loads(module)
            written_on_device = any(same_path(load.path, save.path) and self.saved_on_device(save)
                                    for save in model.obs.saves)
            if id(load.node) not in restored[id(module)] and not self.names_a_checkpoint(load) and \
                    not written_on_device:
                continue  # data (embeddings, index splits, a dataset's dict): saved from where?
            if any(same_path(load.path, save.path) and self.saved_on_host(save)
                   for save in model.obs.saves):
                continue  # this code wrote that file from CPU tensors: they load on the CPU
            if downloaded(load, model.module):
                continue  # a publisher's release, fetched by this code: saved where, unknown
            if quantized(load, model.module):
                continue  # weights of PyTorch's quantized modules: they exist on the CPU only
            if retried_with_map_location(load, module):
                continue  # `except: torch.load(path, map_location=...)`: the CPU's way in
            if not written_on_device and model.interpreter.host_saving():
                continue  # the project writes its weights from CPU tensors (`save_network`)
            on_every_rank = every_rank and self.loads_on_every_rank(load)
            if not on_every_rank and not (model.meant_for_cpu and self.restores_saved_devices(
                    load, model, written)):
                continue
            reported.add(id(load.node))
            function = load.where.function
            groups.setdefault((id(function.node) if function is not None else None,
                               on_every_rank), []).append(load)
        for (_, on_every_rank), loads in groups.items():
            yield self.grouped(loads, on_every_rank, model)

    def grouped(self, loads: list, on_every_rank: bool, model: Model) -> RawFinding:
        """One root cause, one finding: a function that loads several files without
        `map_location` (an actor, a critic and their targets) gets one finding, at its first
        load, whose fix adds `map_location` to each."""
        load = loads[0]
        bound = model.bound_at(load.node)
        device = first_device(load.devices, bound)
        source = code(load.node.args[0].value) if load.node.args else ""
        if on_every_rank:
            target = device or ('f"cuda:{local_rank}"' if "local_rank" in bound else "'cpu'")
            message = (
                f"`torch.load({source})` restores tensors onto the GPU that saved them, "
                f"so every rank loads onto the saving rank's GPU (cuda:0) instead of its "
                f"own; pass `map_location={target}`"
            )
        else:
            target = device or "'cpu'"
            message = (
                f"`torch.load({source})` restores tensors onto the device they were saved "
                f"from, and this file also runs without a GPU; pass `map_location={target}`"
            )
        if len(loads) == 1:
            return self.finding(load.node, message, fix=self.fix_for(load, target))
        more = len(loads) - 1
        where = f"`{load.where.function.name}`" if load.where.function is not None else "the module level"
        message += (f"; {where} loads {more} more file{'s' if more > 1 else ''} the same way "
                    f"(the next at line {{related_line}})")
        fixes = [self.fix_for(other, target) for other in loads]
        fix = None
        if all(f is not None for f in fixes):
            fix = Fix(f"load onto {target}", Applicability.SAFE,
                      tuple(edit for f in fixes for edit in f.edits))
        return self.finding(load.node, message, related_node=loads[1].node,
                            related_label="another load without map_location", fix=fix)

    @staticmethod
    def restores_saved_devices(load: Load, model: Model, written: dict) -> bool:
        """A load that a machine without a GPU reaches, of a file this code did not write
        itself (a resume from its own checkpoint runs where it was saved). The code is the
        load's whole module, its functions this run never reaches included: a file its module
        writes somewhere (`save_publishable` writes `model.pth`, `upload` reads it) is its own."""
        if load.map_location or not load.where.cpu or load.where.in_test or not load.node.args:
            return False
        if load.where.past is not None:
            return False  # a machine without a GPU stopped at a CUDA placement before it (DEV001)
        if any((same_path(load.path, save.path) or same_folder_pattern(load, save)) and
               not save.if_missing for save in model.obs.saves):
            return False  # (one written only when missing may come from an earlier GPU run)
        if any(unknown_path(save.path) and not save.if_missing and
               model.interpreter.same_run(save, load) for save in model.obs.saves):
            # `save_path = checkpoint_path("lstm")` handed to an early-stopping object that
            # saves the best weights to it, read back after the loop; `_save_checkpoint(
            # "teacher_best.pth")`, which puts a bare name in `checkpoints/`, before
            # `torch.load("checkpoints/teacher_best.pth")`: the run saved to a path it cannot
            # tell from the one it loads, so the file may well be its own, written from its own
            # device (a resume loads before any save, and stays reported)
            return False
        if any(same_folder_pattern(load, save) for save in _lineage_saves(load)):
            return False
        owner = load.where.function.owner if load.where.function is not None else None
        module = owner.module if owner is not None else model.module
        name = file_name(load.path)
        if id(module) not in written:
            written[id(module)] = written_names(module)
        if name is None or name not in written[id(module)]:
            return True
        # its own file, unless a run of this code writes it from device state (a GPU run's
        # checkpoint, read back by the same code on a machine without one)
        return any(file_name(save.path) == name and LoadWithoutMapLocation.saved_on_device(save)
                   for save in model.obs.saves)

    @staticmethod
    def names_a_checkpoint(load: Load) -> bool:
        """The path, or the function reading it (`def load_checkpoint(path)`), names what a
        training run saves."""
        function = load.where.function
        text = code(load.node.args[0].value) if load.node.args else ""
        return CHECKPOINT_WORDS.search(text) is not None or (
            function is not None and CHECKPOINT_WORDS.search(function.name) is not None)

    @staticmethod
    def saved_on_device(save) -> bool:
        """This code writes that file from device tensors or a moved model."""
        value = save.value
        return value is not None and getattr(value, "place", None) is Place.DEVICE

    @staticmethod
    def saved_on_host(save) -> bool:
        """What was saved is CPU tensors: one, or a display of them (`{"memory_bank": bank}`,
        with numbers or strings beside them)."""
        return _on_host(save.value, nested=True)

    @staticmethod
    def loads_on_every_rank(load: Load) -> bool:
        """Under torchrun the load runs on every rank (not under `if rank == 0:`), and the
        file it reads was written by one of them: its own saves do not make it safe. A path
        built from the rank (`f"queue{rank}.pth"`) is a file of each rank's own, which that
        rank wrote from its own GPU and loads back onto it."""
        return load.ranked and not (
            load.map_location or load.where.in_test or load.where.rank_guarded
            or not load.node.args or type(load.path) is Scalar and load.path.per_rank)

    @staticmethod
    def fix_for(load: Load, target: str) -> Optional[Fix]:
        return add_keyword_fix(load.node, f"map_location={target}", f"load onto {target}")


def _on_host(value, nested: bool = False) -> bool:
    if type(value) is Tensor:
        return value.place is Place.HOST and not value.assumed
    if nested and type(value) is Seq and value.items:
        items = [unwrap(v) for v in value.items]
        return any(type(v) is Tensor for v in items) and all(
            type(v) is Scalar or _on_host(v) for v in items)
    return False


# A path that names what a training run saves: a checkpoint, weights, a model.
CHECKPOINT_WORDS = re.compile(r"ckpt|checkpoint|resume|pretrain|weight|snapshot|model|state|"
                              r"\.pth|\.bin|\.tar", re.I)
# Files named for a run's options (`training_args.bin`, `hparams.pt`): an argparse Namespace
# or a dict of settings, saved beside the weights, with no tensor in it.
OPTIONS_FILE = re.compile(r"""(^|[\W_])(args|hparams|hyperparams|opts|options|config|settings)"""
                          r"""\.(bin|pt|pth|pkl)\b""", re.I)
# Calls that restore state into a module or an optimizer.
STATE_RESTORERS = frozenset({"load_state_dict", "load_checkpoint", "set_state_dict"})
# Uses that show a loaded object is a pickled module.
# (not `.to()` or `.cuda()`: tensors have them too)
MODULE_USES = frozenset({"eval", "train", "parameters", "state_dict", "forward",
                         "named_parameters", "modules", "children", "apply", "zero_grad"})


def restoring_loads(module: cst.Module) -> set[int]:
    """The `torch.load` calls whose result is a device's state, proven by its use: read into
    `load_state_dict` (also through `ckpt["model"]`), or used as a module (`model =
    torch.load(f)`, then `model.eval()`, `model(x)`). A file read as data (embeddings, index
    splits, a dataset's dict) proves nothing about where its tensors were saved from."""
    loads: dict[int, cst.Call] = {}
    targets: dict[str, list] = {}  # a name bound to a load's result -> those loads
    used: set[str] = set()  # names whose value is restored into a module, or used as one
    inside: set[int] = set()  # loads written inside a restoring call's arguments
    for node in walk(module):
        kind = type(node)
        if kind is cst.Call:
            name = dotted(node.func) or ""
            if name.split(".")[-1] in ("load",) and name.startswith(("torch.", "load")):
                loads[id(node)] = node
            last = name.split(".")[-1]
            if last in STATE_RESTORERS:
                for arg in node.args:
                    for inner in walk(arg.value):
                        if type(inner) is cst.Call:
                            inside.add(id(inner))
                        elif type(inner) is cst.Name:
                            used.add(inner.value)
            elif type(node.func) is cst.Attribute and last in MODULE_USES:
                used.add(_root(node.func.value))
            elif type(node.func) is cst.Name:
                used.add(node.func.value)  # `model(x)`: called like a module
        elif kind in (cst.Assign, cst.AnnAssign):
            value = node.value
            if value is None:
                continue
            calls = [inner for inner in walk(value) if type(inner) is cst.Call]
            names = [_root(t.target) for t in node.targets] if kind is cst.Assign \
                else [_root(node.target)]
            for call in calls:
                for name in names:
                    targets.setdefault(name, []).append(id(call))
    found = {i for i in loads if i in inside}
    for name, calls in targets.items():
        if name in used:
            found.update(i for i in calls if i in loads)
    return found


# Calls that fetch a published file and return where it landed.
DOWNLOADS = re.compile(r"download|urlretrieve|cached_path|from_url$", re.I)
# torch.hub's file names: `<name>-<first hex digits of its sha256>.pth` (`check_hash`)
PUBLISHED = re.compile(r"[^/\\]-[0-9a-f]{8,64}\.(?:pth|pt)$")


def downloaded(load: Load, module: cst.Module) -> bool:
    """The file read is one this code downloads: `torch.load(load_file_from_url(url))`, or a
    name the load's function (or module) binds to a download's result on some path (`if
    path.startswith("https://"): path = load_file_from_url(path)`). A published release is
    written for every user of the code; where its tensors were saved is not this code's to
    prove."""
    if not load.node.args:
        return False
    arg = load.node.args[0].value
    if any(type(inner) is cst.Call and _downloads(inner) for inner in walk(arg)):
        return True
    path = unwrap(load.path)
    if type(path) is Scalar and path.text is not None and PUBLISHED.search(path.text):
        # `models/vgg16-00b39a1b.pth`: torch.hub's name for a published file, its hash in the
        # name (torchvision's and timm's releases, downloaded by hand into the project)
        return True
    name = _root(arg)
    if not name:
        return False
    scope = load.where.function.node if load.where.function is not None else module
    for node in walk(scope):
        if type(node) is cst.Assign and type(node.value) is cst.Call and _downloads(node.value):
            if any(_root(t.target) == name for t in node.targets):
                return True
    return False


def retried_with_map_location(load: Load, module: cst.Module) -> bool:
    """`try: ckpt = torch.load(path)` / `except: ckpt = torch.load(path, map_location=...)`:
    where the plain load fails (a GPU's checkpoint on a machine without one), the handler
    loads it onto the CPU; the code already has the fallback the finding would add."""
    scope = load.where.function.node if load.where.function is not None else module
    for node in walk(scope):
        if type(node) is not cst.Try or not any(inner is load.node for inner in walk(node.body)):
            continue
        for handler in node.handlers:
            for inner in walk(handler.body):
                if type(inner) is cst.Call and last_part(dotted(inner.func) or "") == "load" and \
                        keyword_arg(inner, "map_location") is not None:
                    return True
    return False


QUANTIZED = re.compile(r"quantiz|int8", re.I)


def quantized(load: Load, module: cst.Module) -> bool:
    """`if self.args.quantized_model: quantized_weights = torch.load(path)`: the state of a model
    `torch.quantization.quantize_dynamic` made, whose quantized layers run on the CPU only, so
    the file holds CPU tensors. Proven by the name its result gets, or a test around it."""
    scope = load.where.function.node if load.where.function is not None else module
    for node in walk(scope):
        kind = type(node)
        if kind is cst.Assign and node.value is load.node:
            if any(QUANTIZED.search(code(t.target)) for t in node.targets):
                return True
        elif kind is cst.If and QUANTIZED.search(code(node.test)) and \
                any(inner is load.node for inner in walk(node.body)):
            return True
    return False


def _downloads(call: cst.Call) -> bool:
    return DOWNLOADS.search((dotted(call.func) or "").split(".")[-1]) is not None


def _root(node: cst.CSTNode) -> str:
    """`ckpt` of `ckpt`, `ckpt["model"]`, `self.ckpt`: the name a use starts from (for an
    attribute, its dotted text)."""
    while type(node) is cst.Subscript:
        node = node.value
    return dotted(node) or ""


def same_path(a: Value, b: Value) -> bool:
    """Two paths of one template: `path % (name, opt.epoch)` and `path % (name, epoch)`, the
    same variable, the same `io.BytesIO` buffer."""
    if type(a) is Scalar and type(b) is Scalar:
        return a.template is not None and _shape(a.template) == _shape(b.template or "")
    if type(a) is Opaque and type(b) is Opaque:
        return bool(a.name) and a.name == b.name
    return False


def unknown_path(path: Value) -> bool:
    """A path the model knows nothing of: no text, no shape, no name (`checkpoint_path(name,
    tag)`, which joins one of two folders with an f-string)."""
    if type(path) is Scalar:
        return path.text is None and path.template is None
    return type(path) is Opaque and not path.name


def same_folder_pattern(load: Load, save) -> bool:
    """`torch.load(osp.join(args.save_path, name + '-{}.pth'.format(seed)))` of what the code
    saved as `osp.join(args.save_path, 'best-val-{}.pth'.format(seed))`: the same folder
    expression, and a file name of the load's pattern (its unknown parts any text, its written
    part, the extension at least, the save's). The code reads back its own checkpoint, as with
    one path of one template."""
    loaded = load.node.args[0].value if load.node.args else None
    saved = save.node.args[1].value if len(getattr(save.node, "args", ())) > 1 else None
    folder = _joined_folder(loaded)
    if folder is None or saved is None or _joined_folder(saved) != folder:
        return False
    pattern, target = _name_pattern(loaded.args[-1].value), _name_pattern(saved.args[-1].value)
    if "." not in pattern.replace("{}", "").strip("."):
        return False  # `{}` or `{}.{}`: no written part to match
    regex = ".*".join(re.escape(part) for part in pattern.split("{}"))
    return re.fullmatch(regex, target) is not None


def _lineage_saves(load: Load) -> Iterator[Save]:
    """The `torch.save` calls written in the classes the loading method's class inherits from
    (`Method.fit` saving what `PTARL.predict` reads back), in whichever project file they are."""
    function = load.where.function
    cls = function.cls if function is not None else None
    if cls is None:
        return
    for info in cls.mro()[1:]:
        for node in walk(info.node):
            if type(node) is cst.Call and (dotted(node.func) or "").endswith("save") and len(node.args) > 1:
                yield Save(node, OPAQUE)


def _name_pattern(node) -> str:
    """A file name as written: its string parts, `{}` for each part computed
    (`model_name + '-{}.pth'.format(seed)` -> `{}-{}.pth`)."""
    if type(node) is cst.SimpleString and isinstance(node.evaluated_value, str):
        return node.evaluated_value
    if type(node) is cst.BinaryOperation and type(node.operator) is cst.Add:
        return _name_pattern(node.left) + _name_pattern(node.right)
    if type(node) is cst.Call and type(node.func) is cst.Attribute and \
            node.func.attr.value == "format" and type(node.func.value) is cst.SimpleString:
        return re.sub(r"\{[^{}]*\}", "{}", _name_pattern(node.func.value))
    if type(node) is cst.FormattedString:
        return "".join(part.value if type(part) is cst.FormattedStringText else "{}"
                       for part in node.parts)
    return "{}"


def _joined_folder(node) -> Optional[str]:
    """`args.save_path` of `os.path.join(args.save_path, ...)` (its first part, as written)."""
    if type(node) is not cst.Call or len(node.args) < 2 or \
            not (dotted(node.func) or "").endswith("join") or node.args[0].star:
        return None
    return code(node.args[0].value)


def file_name(path: Value) -> Optional[str]:
    """The file a path names, when its last part is written out (`{}/model.pth` -> `model.pth`)."""
    if type(path) is not Scalar or path.template is None:
        return None
    name = _base_name(path.template)
    return name if name is not None and "{}" not in name else None


def _base_name(path: str) -> Optional[str]:
    """`model.pth` of `out/model.pth` (or `out\\model.pth`); None when it names no file."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name if "." in name.strip(".") else None


def written_names(module: cst.Module) -> frozenset:
    """The file names written out in the paths of a module's `torch.save` calls
    (`torch.save(d, os.path.join(out, "model.pth"))` -> `model.pth`), wherever they are."""
    names = set()
    for node in walk(module):
        if type(node) is cst.Call and (dotted(node.func) or "").endswith("save") and len(node.args) > 1:
            for inner in walk(node.args[1].value):
                text = inner.evaluated_value if type(inner) is cst.SimpleString else None
                name = _base_name(text) if isinstance(text, str) else None
                if name is not None:
                    names.add(name)
    return frozenset(names)


def _shape(template: str) -> str:
    import re

    return re.sub(r"(\{\})+", "{}", template)
