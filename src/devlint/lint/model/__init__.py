"""Where every value lives: an abstract interpreter over placement.

`analyze(module)` runs the module's code over abstract values (see `values.py` for the lattice,
`evaluate.py` for expressions, `interpret.py` for statements, functions and classes,
`torch_api.py` and `conventions.py` for what devlint knows of torch and of naming) and returns
a `Model`: the observations the rules decide on, and what fixes may use.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from devlint.lint.model.conventions import TEST_NAME
from devlint.lint.model.interpret import Interpreter, gpu_calls_in
from devlint.lint.model.observations import Observations
from devlint.lint.syntax import dotted


def _on_disk(path: str) -> bool:
    import os

    return bool(path) and os.path.isfile(path)


@dataclass
class Model:
    module: cst.Module
    obs: Observations
    interpreter: Interpreter
    shared: dict = field(default_factory=dict)  # what several rules derive once
    text: str = ""  # the program text (its `# noqa` comments)
    path: str = ""  # the checked file's path, as given (a notebook's is its .ipynb)
    unit_of: Any = None  # line -> the unit it runs in (a notebook's cell); None: the file

    @property
    def distributed(self) -> bool:
        return self.interpreter.distributed

    @property
    def nccl_required(self) -> bool:
        return self.interpreter.nccl_required

    @property
    def cuda_kernels(self) -> bool:
        return self.interpreter.cuda_kernels

    def bound_at(self, node: Any) -> frozenset:
        """The names bound on every path where `node` is (empty when it was never reached)."""
        return self.interpreter.bound_at.get(id(node), frozenset())

    @property
    def classes(self):
        return list(self.interpreter.classes.values())

    @property
    def fallback(self) -> bool:
        """The file chooses the CPU when no GPU is there (a device with a fallback, or a test of
        availability that the CPU path gets past)."""
        return self.interpreter.fallback

    @property
    def given_device(self) -> bool:
        """The file's run places something with a device it did not name itself (`self.device`
        of a base class, `args.device`, a parameter): a choice made elsewhere."""
        return self.interpreter.given_device

    @property
    def own_fallback(self) -> bool:
        """The file's own code chooses the CPU when no GPU is there (not only an imported
        module's code that its run executes)."""
        return self.interpreter.own_fallback

    @property
    def meant_for_cpu(self) -> bool:
        """The file's own code expects machines without a GPU: it chooses the CPU there, or
        it tests for a GPU before a CUDA call that places nothing (`torch.cuda.empty_cache()`,
        seeding the GPU's generator), which chooses no device but skips the call on them."""
        return self.interpreter.own_fallback or self.interpreter.cpu_aware

    @property
    def dead_definitions(self) -> frozenset:
        """ids of the function and class nodes no run of the project reaches
        (`model.liveness`)."""
        return self.interpreter.dead_definitions()

    def bound_over_unread(self, node) -> bool:
        """`device = <node>` bound to a name that is bound again before anything reads it (on
        every path that reads the name): the value places nothing (XDVioDet's `main.py`)."""
        ident = id(node)
        return ident in self.interpreter.devices_overwritten and ident not in self.interpreter.devices_read

    def unread_local(self, node) -> bool:
        """`device = <node>` bound to a local name of a function that nothing in the run reads
        (GCNNMatch's `model_testing`): the value places nothing."""
        ident = id(node)
        return ident in self.interpreter.local_devices and ident not in self.interpreter.devices_read

    def only_dead_code_reads(self, node) -> bool:
        """`NAME = <node>` at module level, its name read only in dead definitions."""
        from devlint.lint.model.liveness import only_dead_code_reads

        return only_dead_code_reads(self.module, node, self.dead_definitions)

    @property
    def visible_devices(self) -> bool:
        return self.interpreter.visible_devices

    @property
    def test_file(self) -> bool:
        """A module a test runner collects: `test_*.py`, `*_test.py`, `conftest.py`, or a file
        under a `tests/` or `test/` folder."""
        return self.interpreter.test_file


# Files that hand their loaders to accelerate or Fabric get device batches from loaders the file
# did not build: the convention that a loader yields CPU batches does not hold there.
PREPARES = ("accelerate", ".prepare(", "setup_dataloaders", "Fabric")  # substrings: a regex
# alternation over a large file costs more than the interpreter's own work on it


def loader_prior_of(text) -> bool:
    """Whether a loader named like one is taken for a DataLoader of CPU batches in a file of
    this text (str or bytes): not where it hands its loaders to accelerate or Fabric."""
    words = PREPARES if isinstance(text, str) else tuple(w.encode() for w in PREPARES)
    return not any(word in text for word in words)


# Test files pin devices on purpose: a test marked for GPUs runs only where one is.
TEST_FILE = re.compile(r"(^|/)(tests?/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)")


def holds_tests(path: str, module: cst.Module) -> bool:
    """A module a test runner collects (`TEST_FILE`) that is a test module: under a `tests/`
    folder, a `conftest.py`, or one that defines a test (`def test_...`, `class Test...`, a
    `unittest.TestCase`). A `test_sdf.py` with none, whose module-level code parses options
    and runs the model, is an evaluation script named "test": its devices are no test's
    pinned choice (siren's `test_sdf.py`, set 58)."""
    spelled = path.replace("\\", "/")
    if TEST_FILE.search(spelled) is None:
        return False
    if TEST_FOLDER.search(spelled):
        return True
    for statement in module.body:
        kind = type(statement)
        if kind is cst.FunctionDef and TEST_NAME.search(statement.name.value):
            return True
        if kind is cst.ClassDef and (TEST_NAME.search(statement.name.value) or any(
                (dotted(base.value) or "").endswith("TestCase") for base in statement.bases)):
            return True
    return False


TEST_FOLDER = re.compile(r"(^|/)(tests?/|conftest\.py$)")


def analyze(module: cst.Module, text: str = "", path: str = "", project=None,
            unit_of=None) -> Model:
    """The model of one file. With `project`, the files around it (a `summaries.ModuleFiles`,
    and a real path), imports of the project's own files bind what those files define (see
    `summaries.py`)."""
    from devlint.lint.model.summaries import LEVELS, record, summaries_for

    interpreter = Interpreter(module, loader_prior=loader_prior_of(text),
                              test_file=holds_tests(path, module),
                              path=path if project and _on_disk(path) else "",
                              summaries=summaries_for(project) if project else None,
                              levels=LEVELS, gpu_calls=gpu_calls_in(text),
                              notebook=path.endswith(".ipynb"))
    observations = interpreter.run()
    if project:
        record(interpreter)
        if interpreter.path and not interpreter.notebook:
            interpreter.summaries.keep_reach(interpreter.path, text, interpreter)
    return Model(module, observations, interpreter, text=text, path=path, unit_of=unit_of)
