from __future__ import annotations

import os
from typing import Any, Iterator, Optional

import libcst as cst

from devlint.core.findings import Applicability, Edit, Fix, RawFinding
from devlint.lint.model import TEST_FILE, Model
from devlint.lint.model.values import Klass, Ref
from devlint.lint.rules.base import Rule
from devlint.lint.rules.dev001_hard_coded_cuda import KINDS, another_backend
from devlint.lint.rules.fixes import code
from devlint.lint.rules.ordering import inside, position
from devlint.lint.syntax import dotted, string_value, walk

# Where CUDA is used, not only named: `torch.device("cuda:0")` alone is a descriptor, which a
# machine without a GPU makes (and compares, and hashes) without complaint.
USES = KINDS - {"torch.device"}
MARKER = '@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")'
# Words in a decorator or a call that may skip a test, or run it only where a GPU is.
GUARD_WORDS = ("skip", "cuda", "gpu", "xfail", "requires", "only", "device")


class CudaTestNotSkipped(Rule):
    code = "DEV022"
    name = "cuda-test-not-skipped"
    fix_kind = Applicability.SAFE
    summary = "A test uses CUDA with nothing that skips it on a machine without a GPU."
    example_file = "test_example.py"  # its examples are test modules
    what = """
        Finds a test that a runner collects (`def test_...` or a `test_...` method of a test
        class in a module the runners collect by default: `test_*.py` and `*_test.py` (pytest),
        `test*.py` (unittest), or in a module of another name that imports pytest, which
        `pytest that_file.py` collects all the same; a `test_...` method of a
        `unittest.TestCase` anywhere) that names
        CUDA (`.cuda()`, `.to("cuda")`, `device="cuda"`, `torch.device("cuda")`, also given
        as `device=` to a class or function of this file that hands it to torch)
        on a path that a machine without a GPU runs: no skip marker on the test or its class,
        no module-level `pytestmark`, no `pytest.importorskip`, no `skipTest`/`pytest.skip`
        and no `if torch.cuda.is_available():` around it. A test parametrized over devices
        (`@pytest.mark.parametrize("device", ["cpu", "cuda"])`) that hands the parameter to torch
        is reported at its `"cuda"` value, unless that value is a `pytest.param(...)` with a skip
        mark (no automatic fix there: the mark belongs on that one value). A CUDA use in the
        `setUp` (`setUpClass`, `setup_method`) of a test class is every test's: it is reported
        there, once, when no test of the class names CUDA itself. `.cuda()` of a module that
        holds no tensor (`nn.ReLU()`, a loss without a weight) moves nothing and is no use.
    """
    silent = """
        For tests with any skip or GPU marker (`@pytest.mark.skipif(...)`,
        `@unittest.skipIf(not torch.cuda.is_available(), ...)`, `@requires_cuda`,
        `@pytest.mark.gpu`), on their class too, with a module-level `pytestmark` or
        `pytest.importorskip`, with a skip in the body or in the class's `setUp` (`if not
        torch.cuda.is_available(): self.skipTest(...)`, its bases' too), for the CUDA branch of a test that
        checks availability, for device-parametrised tests (`device` is an argument), for
        helpers and fixtures (only test functions are checked), for a script's own
        `def test(model, loader):` outside test modules or called with arguments by its own
        script (an evaluation step no runner collects), for modules no runner collects by
        default and import no pytest (`conftest.py`, a benchmark `tests/attention.py`; a
        `python_files` setting of pytest is not read),
        and outside tests (DEV001's business). DEV001 exempts tests by design; this rule covers what that leaves out.
    """
    why = """
        A CPU-only CI runner runs every test. One that calls `.cuda()` without a skip fails
        there with "Torch not compiled with CUDA enabled" instead of being skipped, so the
        suite is red for a reason that says nothing about the code, and people learn to ignore
        it.
    """
    bad = """
        import pytest
        import torch


        def test_forward_on_gpu():
            model = torch.nn.Linear(4, 2).cuda()
            assert model(torch.ones(1, 4).cuda()).shape == (1, 2)
    """
    good = """
        import pytest
        import torch


        @pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
        def test_forward_on_gpu():
            model = torch.nn.Linear(4, 2).cuda()
            assert model(torch.ones(1, 4).cuda()).shape == (1, 2)
    """
    fix = """
        Skip the test where there is no GPU:
        `@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")` (a safe fix,
        offered for pytest-style tests in files that import `pytest` and `torch`).
    """

    def check(self, model: Model) -> Iterator[RawFinding]:
        first: dict[int, tuple] = {}  # test -> (its first CUDA use, the test)
        called = None  # the names the module calls with arguments, read once
        for spec in model.obs.devices:
            if spec.kind not in USES or not spec.where.cpu or not spec.where.in_test:
                continue
            if spec.where.expect_raise or (spec.kind != ".cuda(device)" and spec.device.cpu != "accel"):
                continue
            if another_backend(spec):
                continue  # `device = "mps"`: another backend, which a CUDA skip would not cover
            info = spec.where.function
            called = _called_with_arguments(model.module) if called is None else called
            if not self.is_test(info, model, called) and not self.sets_up_tests(info, model):
                # `RollingCache(..., device=torch.device("cuda"))`: the literal is the test's, used
                # by torch in the code the test calls
                info = next((f for f in model.interpreter.functions.values() if f.node is not None
                             and inside(model, f.node, spec.node) and self.is_test(f, model, called)),
                            None)
            if info is None or self.guarded(info):
                continue
            if spec.kind == "device=" and not _torch_call_takes(info.node, spec.node) and \
                    not _parametrized_into_torch(info.node, spec.node) and \
                    not _handed_to_torch_by_callee(model, info.node, spec.node):
                continue  # `SimpleNamespace(device="cuda")`: a setting, maybe never used
            known = first.get(id(info))
            if known is None or position(model, spec.node) < position(model, known[0].node):
                first[id(info)] = (spec, info)
        if not first or self.file_guarded(model):
            return
        # one finding per class: a `setUp`'s use stands for the tests only where none of them
        # uses CUDA itself (each of those is reported where it does)
        tested = {id(info.cls) for _, info in first.values() if info.name not in SETUP_METHODS}
        first = {key: (spec, info) for key, (spec, info) in first.items()
                 if info.name not in SETUP_METHODS or id(info.cls) not in tested}
        for spec, info in sorted(first.values(), key=lambda found: position(model, found[0].node)):
            who = f"`{info.cls.name}.{info.name}` uses CUDA for every test of the class" \
                if info.name in SETUP_METHODS else f"test `{info.name}` uses CUDA"
            yield self.finding(
                spec.node,
                f"{who} (`{code(spec.node)}`) and nothing skips it "
                f"without a GPU: on a CPU-only runner it errors instead of being skipped; mark "
                f"it `{_marker_for(info)}(not torch.cuda.is_available(), ...)`",
                fix=None if _parametrized_into_torch(info.node, spec.node) else self.fix_for(info, model))

    @staticmethod
    def is_test(info: Any, model: Model, called: frozenset) -> bool:
        """A test a runner collects: a `test...` function or method of a test class in a test
        module, or a `test...` method of a `unittest.TestCase` anywhere. A script's own
        `def test(model, loader):` is its evaluation step, not a test (`called`: the names the
        module calls with arguments)."""
        if info is None or type(info.node) is not cst.FunctionDef or not info.name.startswith("test"):
            return False
        home = _home(info, model)
        if info.cls is not None:
            return _collected_class(info.cls, model, home)
        if home is not None:
            # a function of another file that the importer's run reached: that file's own
            # calls say whether it is a helper (`test_single_case(net, image, ...)` called by
            # `test_all_case` there)
            called = _called_with_arguments(home.module)
        if info.name in called:
            return False  # `test(model, loader)` called by the script's `main`: its eval step
        return _collected_module(model, home)

    @staticmethod
    def sets_up_tests(info: Any, model: Model) -> bool:
        """`setUp` (or `setUpClass`, `setup_method`) of a test class: it runs before each of
        the class's tests, so its CUDA use is theirs (`graph = Graph(...).cuda()` in `setUp`)."""
        return info is not None and type(info.node) is cst.FunctionDef and \
            info.name in SETUP_METHODS and info.cls is not None and \
            _collected_class(info.cls, model, _home(info, model))

    @staticmethod
    def guarded(info: Any) -> bool:
        """A decorator of the test or its class, or a call in its body, that may skip it."""
        decorators = list(info.node.decorators)
        if info.cls is not None:
            decorators += list(info.cls.node.decorators)
        if any(_mentions_guard(d.decorator) for d in decorators):
            return True
        bodies = [info.node.body]
        if info.cls is not None:
            # `setUp` skipping without CUDA (`self.skipTest(...)`, `raise unittest.SkipTest`)
            # runs before each test of the class, and of the classes that inherit it
            for cls in info.cls.mro():
                if cls.node is None:
                    continue
                bodies += [s.body for s in cls.node.body.body
                           if type(s) is cst.FunctionDef and s.name.value in SETUP_METHODS]
        for body in bodies:
            for node in walk(body):
                if type(node) is cst.Call and "skip" in (dotted(node.func) or "").lower():
                    return True
        return False

    @staticmethod
    def file_guarded(model: Model) -> bool:
        for node in walk(model.module):
            if type(node) is cst.Name and node.value in ("pytestmark", "importorskip"):
                return True
        return False

    @staticmethod
    def fix_for(info: Any, model: Model) -> Optional[Fix]:
        env = model.interpreter.module_env
        if _unittest(info):
            return None  # a unittest method: pytest's marker works only under pytest
        pytest, torch = env.get("pytest"), env.get("torch")
        if not (type(pytest) is Ref and pytest.qualname == "pytest" and
                type(torch) is Ref and torch.qualname == "torch"):
            return None
        return Fix("skip the test without CUDA", Applicability.SAFE,
                   (Edit("insert_before", info.node, MARKER),))


def collected_name(path: str) -> bool:
    """A module name the runners collect by default: pytest's `test_*.py` and `*_test.py`,
    unittest's `test*.py`. A helper or benchmark under `tests/` with another name
    (`tests/attention.py`) is imported or run by hand, never collected."""
    name = os.path.basename(path or "")
    return name.endswith(".py") and (name.startswith("test") or name.endswith("_test.py"))


def _called_with_arguments(module: cst.Module) -> frozenset:
    """The names the module itself calls with arguments: a function of the script's own
    (`test(model, test_loader)` from `main`), which no runner would call that way."""
    return frozenset(node.func.value for node in walk(module)
                     if type(node) is cst.Call and type(node.func) is cst.Name and node.args)


def _unittest(info: Any) -> bool:
    return info.cls is not None and any(type(b) is Ref and b.qualname.endswith("TestCase")
                                        for b in info.cls.bases)


def _testcase(cls: Any) -> bool:
    """The class derives from a `TestCase`, directly or through classes of its own."""
    return any(type(b) is Ref and b.qualname.endswith("TestCase") or
               type(b) is Klass and _testcase(b.info) for b in cls.bases)


SETUP_METHODS = frozenset({"setUp", "setUpClass", "setup_method", "setup_class"})


def _home(info: Any, model: Model) -> Any:
    """The interpreter of the other file whose code `info` is, reached by this file's run (a
    project's importer checked with its imports); None for this file's own code."""
    owner = getattr(info, "owner", None)
    if owner is None or owner is model.interpreter or getattr(owner, "module", None) is None:
        return None
    return owner


def _collected_class(cls: Any, model: Model, home: Any = None) -> bool:
    """A class whose tests a runner collects: a `unittest.TestCase` anywhere, or a test class
    in a module the runners collect."""
    return _testcase(cls) or bool(_collected_module(model, home) and cls.is_test)


def _collected_module(model: Model, home: Any = None) -> bool:
    """A module whose tests a runner collects: one named as the runners collect by default, or
    one that imports pytest whatever its name (`pytest checks/lora_checks.py` collects the file
    it is given; a `python_files` setting may name it), but not `conftest.py`. `home`: the
    interpreter of another file whose code is asked about, else this file's."""
    module, path, test_file = (home.module, home.path, TEST_FILE.search((home.path or "").replace("\\", "/"))
                               is not None) if home is not None else (model.module, model.path, model.test_file)
    if test_file and collected_name(path):
        return True
    memo = model.shared.setdefault("imports_pytest", {})
    known = memo.get(id(module))
    if known is None:
        known = memo[id(module)] = os.path.basename(path or "") != "conftest.py" and any(
            (type(small) is cst.Import and any(dotted(a.name) == "pytest" for a in small.names)) or
            (type(small) is cst.ImportFrom and dotted(small.module) == "pytest")
            for statement in module.body if type(statement) is cst.SimpleStatementLine
            for small in statement.body)
    return known


def _marker_for(info: Any) -> str:
    return "@unittest.skipIf" if _unittest(info) else "@pytest.mark.skipif"


def _parametrized_into_torch(function: Any, literal: Any) -> bool:
    """`literal` is a value of the test's `parametrize("device", [...])`, and the test hands
    that parameter to torch (`torch.randn(8, device=device)`)."""
    for decorator in function.decorators:
        call = decorator.decorator
        if type(call) is cst.Call and len(call.args) >= 2 and \
                any(node is literal for node in walk(call.args[1].value)):
            name = string_value(call.args[0].value)
            return name is not None and _torch_call_takes(function.body, name)
    return False


def _torch_call_takes(function: Any, value: Any) -> bool:
    """`device=` given to torch itself (`torch.zeros(..., device="cuda")`), which allocates;
    `value` is the node given, or the name of a parameter."""
    for node in walk(function):
        if type(node) is cst.Call and any(arg.value is value or type(value) is str and
                                          type(arg.value) is cst.Name and arg.value.value == value
                                          for arg in node.args):
            root = (dotted(node.func) or "").split(".", 1)[0]
            return root in ("torch", "th", "nn", "F") or type(node.func) is cst.Attribute and \
                node.func.attr.value in ("to", "new_zeros", "new_ones", "new_empty", "new_full",
                                         "new_tensor")
    return False


def _handed_to_torch_by_callee(model: Model, function: Any, value: Any) -> bool:
    """`device="cuda"` given to a class or function of this file (`RollingCache(4, device=
    "cuda")`) whose code hands that parameter to torch (`torch.zeros(..., device=device)`)."""
    for node in walk(function):
        if type(node) is not cst.Call or type(node.func) is not cst.Name:
            continue
        keyword = next((arg.keyword.value for arg in node.args if arg.keyword is not None and
                        any(sub is value for sub in walk(arg.value))), None)  # `device=torch.device("cuda")` too
        if keyword is None:
            continue
        callee = model.interpreter.module_env.get(node.func.value)
        kind = type(callee).__name__
        if kind == "Klass":
            callee = callee.info.lookup("__init__")
            kind = type(callee).__name__
        return kind == "Func" and _torch_call_takes(callee.info.node.body, keyword)
    return False


def _mentions_guard(decorator: Any) -> bool:
    if type(decorator) is cst.Call and (dotted(decorator.func) or "").endswith("mark.parametrize"):
        # `parametrize("device", ["cpu", "cuda"])` names devices and skips nothing; a value
        # `pytest.param("cuda", marks=pytest.mark.skipif(...))` may skip
        return any(_mentions_guard(value) for value in _parameter_values(decorator))
    for node in walk(decorator):
        word = node.value if type(node) is cst.Name else string_value(node) \
            if type(node) is cst.SimpleString else None
        if word and any(part in word.lower() for part in GUARD_WORDS):
            return True
    return False


def _parameter_values(call: cst.Call) -> Iterator[Any]:
    """The values of a `parametrize` call that are no plain strings (`pytest.param(...)`), and its
    keyword arguments but `ids`."""
    for position, arg in enumerate(call.args):
        if arg.keyword is not None:
            if arg.keyword.value != "ids":
                yield arg.value
        elif position == 1 and type(arg.value) in (cst.List, cst.Tuple):
            yield from (e.value for e in arg.value.elements if type(e.value) is not cst.SimpleString)
        elif position > 1 or (position == 1 and type(arg.value) not in (cst.List, cst.Tuple)):
            yield arg.value
