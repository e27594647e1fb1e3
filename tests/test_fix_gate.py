"""The fix gate: a fix may only use names bound where it lands, on every path, before it.

Each idiom is a small program with `<<...>>` marking the text a fix would insert there."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import FIXTURES
from devlint.lint.analyze import analyze_source
from devlint.lint.fix_gate import refusal
from devlint.core.findings import TextEdit


def gate(program: str) -> str | None:
    """The gate's verdict on inserting what `<<...>>` holds (the rest is the file as it is)."""
    program = textwrap.dedent(program)
    start = program.index("<<")
    end = program.index(">>")
    text = program[:start] + program[end + 2:]
    return refusal(text, [TextEdit(start, start, program[start + 2:end])])


BOUND = {
    "module binding before": """
        import torch
        device = torch.device("cpu")
        x = torch.zeros(1).to(<<device>>)
    """,
    "parameter": """
        def f(x, device):
            return x.to(<<device>>)
    """,
    "keyword-only and star parameters": """
        def f(*args, device=None, **kw):
            return args[0].to(<<device, **kw>>)
    """,
    "if and else both bind": """
        import torch
        if torch.cuda.is_available():
            device = "cuda"
        else:
            device = "cpu"
        y = torch.ones(1).to(<<device>>)
    """,
    "the other arm raises": """
        import torch
        if torch.cuda.is_available():
            device = "cuda"
        else:
            raise SystemExit("no GPU")
        y = torch.ones(1).to(<<device>>)
    """,
    "try and every handler bind": """
        try:
            import torch_xla as accel
        except ImportError:
            accel = None
        print(<<accel>>)
    """,
    "loop target inside the loop body": """
        def train(model, loader, device):
            for x, y in loader:
                <<x, y = x.to(device), y.to(device)
                >>model(x)
    """,
    "with target inside the with body": """
        with open("f") as handle:
            print(<<handle>>)
    """,
    "except name inside its handler": """
        try:
            pass
        except OSError as exc:
            print(<<exc>>)
    """,
    "comprehension variables": """
        def step(batch, device):
            return <<{k: v.to(device) for k, v in batch.items()}>>
    """,
    "enclosing function's parameter": """
        def outer(device):
            def inner(x):
                return x.to(<<device>>)
            return inner
    """,
    "module binding before the function": """
        import torch
        device = torch.device("cpu")

        def f(x):
            return x.to(<<device>>)
    """,
    "global declaration": """
        device = "cpu"

        def f(x):
            global device
            return x.to(<<device>>)
    """,
    "a builtin": """
        x = <<len>>([1])
    """,
    "bound by an import": """
        import torch.nn
        layer = <<torch>>.nn.Linear(1, 1)
    """,
    "a class body's own binding": """
        class Config:
            device = "cpu"
            where = <<device>>
    """,
    "try body, used in its else": """
        try:
            device = pick()
        except KeyError:
            raise
        else:
            print(<<device>>)
    """,
}

UNBOUND = {
    "bound later in the file": """
        import torch
        model = torch.nn.Linear(4, 1)
        model.load_state_dict(torch.load("m.pt", map_location=<<device>>))
        device = torch.device("cpu")
    """,
    "bound later, used in a function defined before": """
        def f(x):
            return x.to(<<device>>)

        device = "cpu"
    """,
    "only in the main block": """
        def f(x):
            return x.to(<<device>>)

        if __name__ == "__main__":
            device = "cpu"
            f(1)
    """,
    "one branch only": """
        import torch
        if torch.cuda.is_available():
            device = "cuda"
        y = torch.ones(1).to(<<device>>)
    """,
    "the loop body, used after the loop": """
        for device in ["cpu"]:
            pass
        print(<<device>>)
    """,
    "the try body only": """
        try:
            device = pick()
        except KeyError:
            pass
        print(<<device>>)
    """,
    "a with body": """
        with lock:
            device = pick()
        print(<<device>>)
    """,
    "a local assigned after the use shadows the module": """
        device = "cpu"

        def f(x):
            y = x.to(<<device>>)
            device = "cuda"
            return y
    """,
    "a class attribute seen from a method": """
        class Trainer:
            device = "cpu"

            def step(self, x):
                return x.to(<<device>>)
    """,
    "deleted before": """
        device = "cpu"
        del device
        print(<<device>>)
    """,
    "never bound": """
        x = <<undefined_name>>
    """,
    "a later local in the enclosing function": """
        def outer():
            def inner(x):
                return x.to(<<device>>)
            device = "cpu"
            return inner
    """,
    "bound in the loop, used before the loop": """
        def train(model, loader):
            <<model.to(device)
            >>for x in loader:
                device = x.device
    """,
}


@pytest.mark.parametrize("program", BOUND.values(), ids=BOUND.keys())
def test_names_bound_on_every_path_pass(program: str) -> None:
    assert gate(program) is None


@pytest.mark.parametrize("program", UNBOUND.values(), ids=UNBOUND.keys())
def test_names_not_bound_on_every_path_are_refused(program: str) -> None:
    assert "is not bound on every path" in (gate(program) or "")


def test_a_fix_that_would_not_parse_is_refused() -> None:
    assert gate("x = (<<>>") == "the fixed code would not parse"


def test_a_name_the_edit_only_carries_over_is_not_the_fixes_to_prove() -> None:
    text = "if c:\n    device = 'cuda'\nx.to(device)\n"
    start = text.index("x.to")
    end = text.index("\n", start)
    assert refusal(text, [TextEdit(start, end, "x = x.to(device)")]) is None
    assert refusal(text, [TextEdit(start, end, "x = x.to(other)")]) is not None


def test_the_fixs_own_binding_counts_for_its_other_edits() -> None:
    text = "import torch\nx = torch.zeros(1).cuda()\n"
    line = "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
    at = text.index("cuda()")
    edits = [TextEdit(13, 13, line), TextEdit(at, at + len("cuda()"), "to(device)")]
    assert refusal(text, edits) is None
    assert refusal(text, edits[1:]) is not None


def test_non_ascii_columns_are_located_right() -> None:
    assert gate("café = 1\nx = (café, <<café>>)\n") is None
    assert gate("x = ('é', <<café>>)\ncafé = 1\n") is not None


# The reproductions: each fix used to compile and crash at run time.


def _fixes(path: Path) -> list:
    return [f for f in analyze_source(path.read_text(encoding="utf-8"), str(path)) if f.fix]


def test_no_fix_names_a_device_bound_after_the_load() -> None:
    fixes = _fixes(FIXTURES / "DEV008" / "bad_device_bound_after_load.py")
    assert [e.text for f in fixes for e in f.fix.edits] == ["\"m.pt\", map_location='cpu'"]


def test_a_tensor_from_a_conditional_expression_is_no_device() -> None:
    (fix,) = [f.fix for f in analyze_source(
        (FIXTURES / "DEV008" / "bad_ifexp_tensor_is_no_device.py").read_text(), "f.py")
        if f.fix and f.code == "DEV008"]
    assert [e.text for e in fix.edits] == ["\"m.pt\", map_location='cpu'"]
    (fix,) = _fixes(FIXTURES / "DEV001" / "bad_cuda_before_ifexp_tensor.py")
    assert "to(scores)" not in str(fix.fix.edits) and "to(device)" in str(fix.fix.edits)


def test_sequence_lengths_are_not_moved() -> None:
    path = FIXTURES / "DEV002" / "good_lengths_stay_on_cpu.py"
    assert analyze_source(path.read_text(), str(path)) == []


REPRODUCTIONS = ["DEV008/bad_device_bound_after_load.py", "DEV008/bad_ifexp_tensor_is_no_device.py",
                  "DEV001/bad_cuda_before_ifexp_tensor.py", "DEV002/good_lengths_stay_on_cpu.py"]
RUN_EACH = """
import runpy, sys, traceback
failed = []
for script in sys.argv[1:]:
    try:
        runpy.run_path(script, run_name="__main__")
    except BaseException:
        failed.append(script + ": " + traceback.format_exc().splitlines()[-1])
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def test_fixed_reproductions_run_to_the_end(tmp_path: Path) -> None:
    """Each used to compile after --fix and die at run time (NameError, AttributeError).
    All run in one interpreter: torch is imported once."""
    torch = pytest.importorskip("torch")
    scripts = [tmp_path / Path(name).name for name in REPRODUCTIONS]
    for name, script in zip(REPRODUCTIONS, scripts):
        shutil.copy(FIXTURES / name, script)
    torch.save(torch.nn.Linear(4, 1).state_dict(), tmp_path / "m.pt")
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    fixed = subprocess.run([sys.executable, "-m", "devlint", "check", "--no-cache", "--fix",
                            *[s.name for s in scripts]], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert fixed.returncode in (0, 1) and "Traceback" not in fixed.stderr, fixed.stderr
    ran = subprocess.run([sys.executable, "-c", RUN_EACH, *[s.name for s in scripts]], cwd=tmp_path,
                         capture_output=True, text=True, env=env, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
