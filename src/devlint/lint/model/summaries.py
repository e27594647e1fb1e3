"""Module summaries: what the module-level names of a project's files hold once the module's
code has run (functions and classes with their code, devices, flags such as
`_SUPPORTS_FLEX_ATTENTION`, models, loaders).

An import that resolves to a project file binds the summary's value
instead of an unknown name, so a guard, a helper or a model defined in another file is known
where it is used. A function from another file runs, when called, on the importer's values;
what it observes there (a CPU tensor in the `forward` of a model the importer moved) becomes a
finding of that file, with the importer's call as where it was reached (`lint.analyze`), and
is reported only when that file is checked (`lint.runner.check_project`).

Summaries reach LEVELS imports deep: the checked file sees summaries made at level LEVELS - 1,
whose own imports are summarised at the level below, down to level 0, where the project's
imports are unknown. So `train.py` -> `settings.py` -> `config.py` is followed, an import cycle
ends by itself, and a summary is the same whoever asks for it (it depends on its file, its
level and the files below it, never on which file was checked first): each is computed once
per process and level. A file that does not parse, or is too large, gives none.
"""
from __future__ import annotations

import ast
import os
import re
from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterator, NamedTuple, Optional, Protocol

from devlint.core.collector import dropped
from devlint.lint.model import torch_api as api
from devlint.core.limits import IMPORT_LEVELS
from devlint.core.names import ast_words

# How far `Summaries.gpu_on_import` follows a chain of module-level imports: train.py -> model.py
# -> op/__init__.py -> op/fused_act.py, which compiles its CUDA kernel.
GPU_IMPORT_DEPTH = 4
# A module-level import: at column 0, so neither in a function nor under an `if` or a `try`.
_TOP_IMPORT = re.compile(rb"^(?:from[ \t]+(\.*)([\w.]*)[ \t]+import\b|import[ \t]+([\w.]+))", re.M)
# `from package import a, b` at module level, the names on its own line: submodules, maybe
_FROM_NAMES = re.compile(rb"^from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?[ \t]*([\w \t,]+)$", re.M)
# What compiling CUDA kernels on import needs in the text (confirmed by interpreting the file).
_BUILDS_KERNELS = re.compile(rb"cpp_extension")
# Importers of a helper module whose runs `Summaries.stopped_before` asks, at most: more is a
# library module, whose callers are not all in the project anyway.
MAX_IMPORTERS_RUN = 8
MAX_PACKAGES_FOLLOWED = 4  # package `__init__.py` files re-exporting a definition, followed
# How many importers up `stopped_before` follows: a helper's importer, and that importer's own
# (a script -> its model module -> the model's helper).
REACH_LEVELS = 2
MAX_SUMMARIES = 512  # per process and level: the trees behind them are what costs memory
LEVELS = IMPORT_LEVELS  # imports followed from a checked file (the importers walk reads the same)
# Parsed modules kept to summarise them at another level, or to check them. As many as the
# summaries: a summary's values hold nodes of its tree, so the summaries keep those trees alive
# anyway, and a smaller map only forgets trees still in memory and parses them again (on the
# torch package, 64 cost 21% more CPU than 512 and no less memory).
MAX_TREES = MAX_SUMMARIES
# (their functions are kept by the summaries anyway)


class ModuleFiles(Protocol):
    """What the model asks of the files around a checked one: the one interface between the
    model and the workspace, which implements it (`workspace.project.PROJECT_FILES`) and hands
    it to `lint.model.analyze`. The model never finds or reads a file itself."""

    def resolve(self, importer: str, module: str, level: int) -> Optional[str]:
        """The file (or namespace package folder) `module` names, imported from `importer`
        with `level` leading dots; None outside the importer's project."""

    def child(self, folder: str, name: str) -> Optional[str]:
        """The submodule or subpackage `name` of the package folder `folder`, or None."""

    def importers(self, path: str) -> Optional[frozenset]:
        """The project files whose import lines name `path` (None: not known). Where some do,
        their runs show what `path`'s functions are called with."""

    def host_saving(self, path: str) -> Optional[bool]:
        """Whether the project of `path` writes its modules' state from CPU tensors
        (`workspace.saves`); None: not known."""

    def git_submodules(self, path: str) -> bool:
        """Whether the project of `path` declares git submodules (`.gitmodules`): folders a
        clone without `--recursive` leaves empty, so a module missing there may be one."""

    def cuda_extensions(self, path: str) -> tuple:
        """The top-level module names of the compiled extensions the project of `path` builds
        with CUDA sources (a `setup.py` whose extension lists `Align1D_cuda_kernal.cu`):
        importing one needs a GPU (`workspace.accelerators`)."""

    def gpu_deployment(self, path: str) -> bool:
        """Whether the project declares `path` deployed only on a machine with a GPU (a Cog
        predictor whose `cog.yaml` builds with `gpu: true`: `workspace.deploy`)."""

    def names_accelerator(self, path: str) -> Optional[bool]:
        """Whether a file of the project of `path` names an accelerator (`cuda`, `gpu`, a
        framework that places the model: `workspace.accelerators`); None: not known."""

    def default_elsewhere(self, path: str) -> Optional[bool]:
        """Whether a file whose run loads `path` (its imports reach it) sets the process's
        default tensor type or device to an accelerator (`workspace.accelerators`); None: not
        known."""

    def unnamed_elsewhere(self, path: str) -> Optional[tuple]:
        """The top-level functions and classes of `path` that no other text file of its
        project names (`workspace.liveness`); None: not known, or a package others install."""

    def sys_path_folders(self, path: str) -> Optional[tuple]:
        """The folders (relative to its own) the file `path` puts on `sys.path` itself, where
        every edit it makes is known (`workspace.sys_path`); None where one is not."""

    def read(self, path: str) -> Optional[bytes]:
        """The bytes of a project file a summary may be made of (None: not a readable file of
        sensible size)."""

    def digest(self, data: bytes) -> str:
        """What a summary and a cached result name a file's bytes by."""

    def project(self, path: str) -> str:
        """The root of the project `path` belongs to: no import leads from one project's files
        to another's."""


@dataclass
class Summary:
    path: str
    digest: str
    env: dict  # name -> Value, as the module's code left it
    dependencies: tuple  # (path, digest) of every project file it was built from, itself first
    probes: tuple = ()  # how the imports behind it resolved (see `Interpreter.probes`)
    # Its module-level code stops a machine without a GPU (it compiles a CUDA extension, sets
    # the GPU, imports a CUDA-only package): so does importing it.
    gpu_only: bool = False


class Reach(NamedTuple):
    """What one run of a project file reached of other files' code (`Summaries.reach_of`)."""

    # (path, name) of a top-level function, method (`Cls.name`) or class it entered -> where
    # its reaches before any stop came from: the name of the file's own function run on its
    # own then, or None for the module's code; empty where every path had stopped
    entered: dict
    files: frozenset  # the (path, digest) pairs it stood on
    probes: frozenset


def absolute(path: str) -> str:
    """The one spelling of a file's path that reaches are kept under."""
    import os

    return os.path.normcase(os.path.abspath(path))


@dataclass
class Dependencies:
    """What one file's analysis stood on: the project files it read summaries of, by digest
    (None: unreadable or unparsable), and how each import resolved. A cached result is good
    while all of them still hold (`workspace.project.still_holds`)."""

    files: set = field(default_factory=set)
    probes: set = field(default_factory=set)


_RECORDING: ContextVar = ContextVar("devlint_dependencies", default=None)


@contextmanager
def recording() -> Iterator[Dependencies]:
    found = Dependencies()
    token = _RECORDING.set(found)
    try:
        yield found
    finally:
        _RECORDING.reset(token)


def record(interpreter) -> None:
    found = _RECORDING.get()
    if found is not None:
        found.files.update(interpreter.dependencies)
        found.probes.update(interpreter.probes)


def record_elsewhere(files, probes) -> None:
    """What an answer about other files' runs stood on (`reach_of`), for the cache only: not
    the file's own dependencies, which tell its run and the runs of those who ask it."""
    found = _RECORDING.get()
    if found is not None:
        found.files.update(files)
        found.probes.update(probes)


def record_probe(probe: tuple) -> None:
    """A probe a rule's question made after the run was recorded (DEV008 asks how the project
    writes its weights only for a load it would report)."""
    found = _RECORDING.get()
    if found is not None:
        found.probes.add(probe)


class Summaries:
    def __init__(self, files: ModuleFiles) -> None:
        self.files = files
        self._cache: "OrderedDict[tuple, Summary]" = OrderedDict()  # (path, level) -> summary
        self._trees: "OrderedDict[str, object]" = OrderedDict()  # text -> parsed module
        self.digests: dict[str, Optional[str]] = {}
        self._gpu_imports: dict = {}  # (path, depth) -> `gpu_on_import`'s answer
        self._binds: dict = {}  # digest -> `module_bindings` of those bytes
        self._relative: dict = {}  # digest -> `_imports_relatively` of those bytes
        self._definitions: dict = {}  # digest -> `_definition_words` of those bytes
        self._code_words: dict = {}  # digest -> `_code_words` of those bytes
        self._project: Optional[str] = None  # the root of the project of the files checked now
        self._reach: dict = {}  # path -> (its digest, `reach_of`'s answer)
        self._reaching: set = set()  # files whose `reach_of` runs now

    def forget(self) -> None:
        """Let go of every summary, and of what was reached through them."""
        if self._cache:
            dropped(len(self._cache))
        self._cache.clear()
        self._gpu_imports.clear()
        self._reach.clear()

    def checking(self, path: str) -> None:
        """A file is checked next. When it is of another project than the file before (a run
        over a folder of many projects, which discovery lists one after the other), nothing
        kept for the last one will be asked again: it is let go at once, not evicted one by
        one after the caches filled (each eviction frees only in a full collection of the
        heap, `core.collector`). A summary is the same whoever asks for it, so letting one go
        changes no result."""
        root = self.files.project(path)
        if root == self._project:
            return
        if self._project is not None and self._cache:
            self.forget()
            self._trees.clear()
        self._project = root

    def get(self, path: str, level: int = LEVELS - 1) -> Optional[Summary]:
        data = self.files.read(path)
        if data is None:
            self.digests[path] = None
            return None
        digest = self.files.digest(data)
        self.digests[path] = digest
        key = (path, max(level, 0))
        known = self._cache.get(key)
        if known is not None and known.digest == digest:
            self._cache.move_to_end(key)
            return known
        summary = self._build(path, data, digest, key[1])  # its imports one level down: ends
        if summary is not None:
            self._cache[key] = summary
            while len(self._cache) > MAX_SUMMARIES:
                self._cache.popitem(last=False)
                dropped()
        if known is not None:
            dropped()  # the summary of the file's earlier bytes (an editor's buffer)
        return summary

    def binds(self, path: str) -> tuple:
        """The names the project file at `path` binds at module level, or None where a name
        may be bound in a way the text does not show (see `module_bindings`). Returns (the
        names, the (path, digest) it stood on)."""
        return self._of_text(path, self._binds, module_bindings, None)

    def imports_relatively(self, path: str) -> tuple:
        """Whether the project file at `path` runs a relative import (`from .dyn_conv import
        X`) at module level with no condition: imported by a plain name as a top-level module,
        it raises ImportError ("attempted relative import with no known parent package").
        Returns (the answer, the (path, digest) it stood on)."""
        return self._of_text(path, self._relative, _imports_relatively, False)

    def _of_text(self, path: str, known: dict, read, unknown) -> tuple:
        """`read` of the bytes of the project file at `path`, kept in `known` by their digest;
        `unknown` where the file cannot be read. Returns (it, the (path, digest) it stood on)."""
        data = self.files.read(path) if path.endswith(".py") else None
        if data is None:
            return unknown, frozenset()
        digest = self.files.digest(data)
        if digest not in known:
            known[digest] = read(data)
        return known[digest], frozenset({(path, digest)})

    def _resolves(self, path: str, module: str, probes: set) -> bool:
        """Whether an absolute import of `module` in the file at `path` finds a project file
        (the probe recorded)."""
        target = self.files.resolve(path, module, 0)
        probes.add(("import", path, module, 0, target))
        return target is not None

    def submodule_files(self, package: Optional[str], names: list, probes: set) -> list:
        """The project files among `names` that are submodules of the package whose
        `__init__.py` is `package` (`from package import a, b`), the lookups recorded in
        `probes`."""
        if package is None or not package.endswith("__init__.py"):
            return []
        folder = os.path.dirname(package)
        found = []
        for name in names:
            if name.isidentifier():
                child = self.files.child(folder, name)
                probes.add(("child", folder, name, child))
                if child is not None and child.endswith(".py"):
                    found.append(child)
        return found

    def gpu_on_import(self, path: str, depth: int = GPU_IMPORT_DEPTH) -> tuple:
        """Whether importing the project file at `path` stops a machine without a GPU: the file
        compiles CUDA kernels on import (its summary says so), imports a compiled CUDA
        extension (one named for CUDA, or one the project builds from CUDA sources), or imports,
        at module level and with no condition, a project module that does (rosinality's
        stylegan2: `generate.py`
        imports `model`, which imports `op`, whose `fused_act` compiles its kernel). Followed
        `depth` imports deep. Returns (the answer, the (path, digest) pairs and the import
        probes it stood on)."""
        key = (path, depth)
        known = self._gpu_imports.get(key)
        if known is not None and all(self._digest(p) == d for p, d in known[1]):
            return known  # (a long-lived process, the server, sees the files edited since)
        self._gpu_imports[key] = (False, frozenset(), frozenset())  # an import cycle: no
        data = self.files.read(path) if path.endswith(".py") else None
        files = {(path, self.files.digest(data) if data is not None else None)}
        probes: set = set()
        found = False
        if data is not None and _BUILDS_KERNELS.search(data):
            summary = self.get(path, 0)
            found = summary is not None and summary.gpu_only
        if data is not None and not found:
            imports = [(len(dots or b""), (module if plain is None else plain).decode("ascii", "replace"))
                       for dots, module, plain in (m.groups() for m in _TOP_IMPORT.finditer(data))]
            # `import my_lib_cuda as my_lib` at module level: a compiled extension named for
            # CUDA, or a package whose import needs a GPU, which a machine without one cannot
            # import
            found = any(not level and api.import_needs_gpu(name) for level, name in imports)
            tried = b"try:" in data
            if not found and (tried or any(not level for level, _ in imports)):
                # `import Align1D`, an extension the project builds from CUDA sources
                own = self.files.cuda_extensions(path)
                probes.add(("cuda_extensions", path, own))
                found = any(not level and api.loads_extension(
                    name, own, lambda module: self._resolves(path, module, probes))
                    for level, name in imports)
                if not found and own and tried:
                    # `try: import pointnet2._ext as _ext` / `except ImportError: raise ...`
                    # (Pointnet2's `pointnet2_utils.py`, copied into many point-cloud repos)
                    found = any(api.loads_extension(
                        name, own, lambda module: self._resolves(path, module, probes))
                        for name in _required_tried_imports(data))
        if data is not None and not found and depth > 1:
            targets = []
            for level, name in imports:
                target = self.files.resolve(path, name, level)
                probes.add(("import", path, name, level, target))
                if target is not None and target.endswith(".py"):
                    targets.append(target)
            for dots, module, names in (m.groups() for m in _FROM_NAMES.finditer(data)):
                # `from pointnet2.utils import pointnet2_utils`: the package's submodule runs too
                package = self.files.resolve(path, module.decode("ascii", "replace"), len(dots))
                names = [n.strip() for n in names.decode("ascii", "replace").split(",")]
                targets += [child for child in self.submodule_files(package, names, probes)
                            if child not in targets]
            for target in targets:
                below = self.gpu_on_import(target, depth - 1)
                files |= below[1]
                probes |= below[2]
                if below[0]:
                    found = True
                    break
        result = (found, frozenset(files), frozenset(probes))
        self._gpu_imports[key] = result
        return result

    def stopped_before(self, path: str, name: str, cls: Optional[str],
                       level: int = REACH_LEVELS - 1, asked: frozenset = frozenset()) -> tuple:
        """Whether the importers' runs of the project file at `path` reach its top-level
        function or method `name` (of class `cls`: no object of it exists otherwise) only where
        the CPU world has stopped: past an unguarded CUDA placement that raised, or behind a GPU
        test. Proven only where every importer is a Python file devlint runs (at most
        MAX_IMPORTERS_RUN), at least one reaches it, and every one that names it is seen to:
        a call devlint does not follow may be a path of the CPU world's. A package
        `__init__.py` that re-exports it stands for the package's importers (FedNova's
        `distoptim`), which are asked in its place. A clean reach made while the importer ran one
        of its own
        functions alone counts as no reach where that function is, in turn, reached only past
        a stop (`level` importers further up: a script, its model module, the model's helper).
        A top-level function that no importer names nor enters is reached through its own
        module's definitions that name it (MetaOptNet's `binv`, called by `R2D2Head`, which
        the heads' class picks): where each of them is reached only past a stop, so is it.
        Returns (the answer, the (path, digest) pairs and the probes it stood on)."""
        path = absolute(path)
        files: set = set()
        probes: set = set()
        direct = self.files.importers(path)
        probes.add(("importers", path, direct))
        if not direct or len(direct) > MAX_IMPORTERS_RUN:
            return False, files, probes
        keys = ((path, name), (path, cls) if cls is not None else None)
        top = name.split(".")[0]
        word = re.compile(rb"\b%s\b" % re.escape(top.encode()))
        naming = set()
        pending, importers, packages = sorted(direct), set(), set()
        while pending:
            importer = pending.pop()
            data = self.files.read(importer) if importer.endswith(".py") else None
            if data is None:
                return False, files, probes
            named = word.search(data) is not None
            if named and os.path.basename(importer) == "__init__.py":
                # a package re-exports it (FedNova's `distoptim/__init__.py`): its callers are
                # the package's importers, whose runs note what they enter under this file
                outer = self.files.importers(importer)
                probes.add(("importers", importer, outer))
                if not outer or importer in packages or len(packages) >= MAX_PACKAGES_FOLLOWED:
                    return False, files, probes
                packages.add(importer)
                pending.extend(sorted(set(outer) - importers - {path}))
                continue
            importers.add(importer)
            if len(importers) > MAX_IMPORTERS_RUN:
                return False, files, probes
            if named and not _defines_its_own(data, top) and self._uses_in_code(importer, top):
                naming.add(importer)
        reached = False
        # (those that name it first: each must be seen to reach it, the cheapest way to no)
        for importer in sorted(importers, key=lambda p: (p not in naming, p)):
            found = self.reach_of(importer)
            if found is None:
                return False, files, probes
            files |= found.files
            probes |= found.probes
            seen = _seen(found.entered, keys)
            if not seen:
                if importer in naming:
                    return False, files, probes  # it names it, and its run was not seen to get there
                continue
            starts = set().union(*seen)  # where it was reached before any stop
            if starts:
                if level <= 0 or None in starts:
                    return False, files, probes  # reached from code its module runs
                for start in sorted(starts):
                    function, _, method = start.partition(".")
                    answer = self.stopped_before(importer, start, function if method else None,
                                                 level - 1)
                    files |= answer[1]
                    probes |= answer[2]
                    if not answer[0]:
                        return False, files, probes
            reached = True
        if not reached and not naming and cls is None and "." not in name:
            definitions, _ = self._of_text(path, self._definitions, _definition_words, None)
            callers = _callers_in_module(definitions, name)
            if callers and not set(callers) & asked:
                for caller in callers:
                    answer = self.stopped_before(path, caller, None, level, asked | {name})
                    files |= answer[1]
                    probes |= answer[2]
                    if not answer[0]:
                        return False, files, probes
                return True, files, probes
        return reached, files, probes

    def _uses_in_code(self, path: str, name: str) -> bool:
        """Whether the code of the project file at `path` uses `name` beyond importing it
        (integral-human-pose's `test.py` imports `trainNet` with the evaluation helpers and
        never calls it): an import binds a name, it runs nothing. True where the file does not
        parse."""
        words, _ = self._of_text(path, self._code_words, _code_words, None)
        return words is None or name in words

    def reach_of(self, path: str) -> Optional[Reach]:
        """What a run of the project file at `path`, as `devlint check` runs it, reaches of
        other files' code (`Interpreter.reach`), or None where it cannot be run (a notebook, a
        file that does not parse); kept per process by the file's bytes, and re-run where a
        file it stood on changed."""
        if not path.endswith(".py"):
            return None
        path = absolute(path)
        data = self.files.read(path)
        if data is None:
            return None
        digest = self.files.digest(data)
        known = self._reach.get(path)
        if known is not None and known[0] == digest and \
                all(self._digest(p) == d for p, d in known[1].files if p != path):
            return known[1]
        if path in self._reaching:
            return None  # its own run asked again (an import cycle): not known
        from devlint.lint.model import holds_tests, loader_prior_of
        from devlint.lint.model.interpret import Interpreter, gpu_calls_in

        module = self._tree(data, digest)
        if module is None:
            return None
        interpreter = Interpreter(module, loader_prior=loader_prior_of(data),
                                  test_file=holds_tests(path, module), path=path, summaries=self,
                                  levels=LEVELS, gpu_calls=gpu_calls_in(data))
        self._reaching.add(path)
        try:
            interpreter.run()
        except RecursionError:
            return None
        finally:
            self._reaching.discard(path)
        self._keep(path, digest, interpreter)
        return self._reach[path][1]

    def _keep(self, path: str, digest: str, interpreter) -> None:
        files = frozenset({(path, digest)} | interpreter.dependencies)
        self._reach[path] = (digest, Reach(dict(interpreter.reach), files,
                                           frozenset(interpreter.probes)))

    def keep_reach(self, path: str, text: str, interpreter) -> None:
        """A checked file's run is the run `reach_of` makes of it (the same settings, and what
        a run asks its own importers changes only its observations, never its reach): its
        reach is kept, where the text checked is the file's bytes on disk."""
        from devlint.lint.model import holds_tests

        data = self.files.read(path) if path.endswith(".py") else None
        if data is None or data != text.encode("utf-8", "surrogatepass"):
            return
        path = absolute(path)
        if holds_tests(path, interpreter.module) != interpreter.test_file:
            return  # (a folder above named `tests/`: `reach_of` would run it as a test)
        self._keep(path, self.files.digest(data), interpreter)

    def _digest(self, path: str) -> Optional[str]:
        data = self.files.read(path) if path.endswith(".py") else None
        return self.files.digest(data) if data is not None else None

    def _build(self, path: str, data: bytes, digest: str, level: int) -> Optional[Summary]:
        from devlint.lint.model.interpret import Interpreter, gpu_calls_in

        module = self._tree(data, digest)
        if module is None:
            return None
        interpreter = Interpreter(module, path=path, summaries=self, summarising=True,
                                  levels=level, gpu_calls=gpu_calls_in(data))
        try:
            interpreter.run()
        except RecursionError:
            return None
        dependencies = ((path, digest),) + tuple(sorted(interpreter.dependencies, key=repr))
        return Summary(path, digest, interpreter.module_env, dependencies,
                       tuple(sorted(interpreter.probes, key=repr)), interpreter.gpu_only_module)

    def _tree(self, data: bytes, digest: str):
        """libcst's tree of a project file, or None where devlint would not analyse it when
        checked (a syntax error, DEV999; past the screen or refused by libcst, DEV998): its
        importers read its names as unknown, and its limits never become theirs."""
        from devlint.core.limits import Unanalysable
        from devlint.core.source_text import SourceError, decode_source
        from devlint.lint.parse import read_module

        try:
            text = decode_source(data)
        except SourceError:
            return None
        module = self.tree(text)
        if module is not None:
            return module
        try:
            module = read_module(text, screened=True)
        except (SourceError, Unanalysable, RecursionError, MemoryError):
            return None
        self.keep_tree(text, module)
        return module

    # A file of the project is often both summarised (another file imports it) and checked: the
    # two share one libcst tree, parsed once (`lint.analyze` asks here before parsing a checked
    # file, and leaves its tree here after). libcst's trees are immutable; the model knows a
    # node by its identity, so a checked file whose run stood on its own summary (an import
    # cycle back to it) is run again on a tree of its own.

    def tree(self, text: str):
        module = self._trees.get(text)
        if module is not None:
            self._trees.move_to_end(text)
        return module

    def keep_tree(self, text: str, module) -> None:
        self._trees[text] = module
        while len(self._trees) > MAX_TREES:
            self._trees.popitem(last=False)


_SUMMARIES: dict = {}  # id(files) -> (files, its summaries): one per process and workspace
# (workers fork with what the parent had)


def forget_summaries() -> None:
    """A file of the project changed on disk under this process (`check --fix` wrote it): a
    summary is checked against its own file's bytes only, so every one is let go, and what
    was reached through them (`reach_of`, `gpu_on_import`) with them."""
    for _, summaries in _SUMMARIES.values():
        summaries.forget()


def summaries_for(files: ModuleFiles) -> Summaries:
    known = _SUMMARIES.get(id(files))
    if known is None or known[0] is not files:
        known = _SUMMARIES[id(files)] = (files, Summaries(files))
    return known[1]


# A module that may bind a name its text does not show: a star import, a module-level
# `__getattr__`, writes to its namespace (`globals()[k] = v`, `setattr(sys.modules[__name__],
# ...)`, `vars()`, `exec`).
_DYNAMIC_BINDING = frozenset({"globals", "vars", "locals", "exec", "setattr", "__getattr__",
                              "__dict__", "modules"})


_CAPTURES = tuple(getattr(ast, kind) for kind in ("ExceptHandler", "MatchAs", "MatchStar")
                  if hasattr(ast, kind))


def _imports_relatively(data: bytes) -> bool:
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return any(type(node) is ast.ImportFrom and node.level > 0 for node in tree.body)


def module_bindings(data: bytes) -> Optional[frozenset]:
    """Every name a module binds at module level, on any path (definitions, assignments,
    imports, loop and `with` targets, `global` names its functions assign); None where it may
    bind others (see `_DYNAMIC_BINDING`) or does not parse."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    names: set = set()
    for node in ast.walk(tree):
        if type(node) is ast.ImportFrom and any(alias.name == "*" for alias in node.names):
            return None
        if type(node) is ast.Name and node.id in _DYNAMIC_BINDING or \
                type(node) is ast.Attribute and node.attr in _DYNAMIC_BINDING:
            return None
        if type(node) is ast.Global:
            names.update(node.names)
    for node in tree.body:
        kind = type(node)
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            if node.name == "__getattr__":
                return None
            names.add(node.name)
            continue
        if kind in (ast.Import, ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
            continue
        for child in ast.walk(node):
            if type(child) is ast.Name and type(child.ctx) is ast.Store:
                names.add(child.id)
            elif type(child) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                names.add(child.name)  # (a definition under `if`/`try`)
            elif type(child) in (ast.Import, ast.ImportFrom):
                names.update((alias.asname or alias.name).split(".")[0] for alias in child.names)
            elif type(child) in _CAPTURES and getattr(child, "name", None):
                names.add(child.name)  # `except E as e`, a `case` pattern's capture (3.10+)
    return frozenset(names)


def _seen(entered: dict, keys: tuple) -> list:
    """Where an importer's run reached a function or method (`keys`: its own key, and its
    class's), as a list of origin sets (empty list: not reached). A method is reached where
    its run entered it; a class built only past a stop has no object before it, so neither has
    any of its methods; a method never entered (reached by a call devlint does not follow) is
    reached wherever an object of its class is."""
    own, cls = keys
    built = entered.get(cls) if cls is not None else None
    if built is not None and not built:
        return [built]
    if own in entered:
        return [entered[own]]
    return [built] if built is not None else []


def _definition_words(data: bytes) -> Optional[tuple]:
    """What `_callers_in_module` reads of a module, once per version of its bytes: each
    top-level definition's (name, whether it is decorated, the words of its code), and the
    words of the module-level code outside them; None where the text does not parse."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None

    definitions = []
    outside: set = set()
    for statement in tree.body:
        if type(statement) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            definitions.append((statement.name, bool(statement.decorator_list), frozenset(ast_words(statement))))
        else:
            outside |= ast_words(statement)
    return tuple(definitions), frozenset(outside)


def _callers_in_module(definitions: Optional[tuple], name: str) -> tuple:
    """The module's other top-level functions and classes whose code names `name`; empty
    where its own module-level code names it (an import runs that), a decorator may register
    it or a caller, or the text does not parse (`_definition_words`)."""
    if definitions is None:
        return ()
    tops, outside = definitions
    if name in outside:
        return ()
    callers = []
    for top, decorated, words in tops:
        if top == name:
            if decorated:
                return ()
        elif name in words:
            if decorated:
                return ()  # a decorated caller may be registered and run by name
            callers.append(top)
    return tuple(callers)


def _required_tried_imports(data: bytes) -> list:
    """The modules a file imports absolutely at its top level inside `try:` where every handler
    that catches the failed import (`except ImportError:`, `except Exception:`, a bare `except:`)
    raises, with or without a condition of its own: the import is required, not optional
    (Pointnet2's `except ImportError: if not getattr(builtins, "__POINTNET2_SETUP__", False):
    raise ImportError(...)`, a flag only its own `setup.py` sets). A handler that goes on
    without raising (`_ext = None`) makes the import optional: none of its modules."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    found: list = []
    for statement in tree.body:
        if type(statement) is not ast.Try or not statement.handlers:
            continue
        catching = [handler for handler in statement.handlers if handler.type is None or any(
            type(kind) is ast.Name and kind.id in ("ImportError", "ModuleNotFoundError", "Exception")
            for kind in (handler.type.elts if type(handler.type) is ast.Tuple else [handler.type]))]
        if not catching or not all(_raises(handler.body) for handler in catching):
            continue
        for inner in statement.body:
            if type(inner) is ast.Import:
                found.extend(alias.name for alias in inner.names)
            elif type(inner) is ast.ImportFrom and not inner.level and inner.module:
                found.extend([inner.module] + [f"{inner.module}.{alias.name}" for alias in inner.names])
    return found


def _raises(body: list) -> bool:
    """Whether a handler's statements raise, at their top level or in an `if` there."""
    for statement in body:
        if type(statement) is ast.Raise:
            return True
        if type(statement) is ast.If and (_raises(statement.body) or _raises(statement.orelse)):
            return True
    return False


def _code_words(data: bytes) -> Optional[frozenset]:
    """The identifiers a module's code uses (`core.names.ast_words`: an import's names are no
    use of them); None where it does not parse."""
    try:
        return frozenset(ast_words(ast.parse(data)))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def _defines_its_own(data: bytes, name: str) -> bool:
    """Whether a file defines a top-level `name` of its own and imports no `name`: its
    mentions are its own (MetaOptNet's `train.py` keeps its own `one_hot`)."""
    word = re.escape(name.encode())
    return re.search(rb"^(?:async[ \t]+def|def|class)[ \t]+" + word + rb"\b", data, re.M) is not None and \
        re.search(rb"^[ \t]*(?:from[ \t][^\n]*)?import[^\n]*\b" + word + rb"\b", data, re.M) is None

