"""Shadow CUDA (devlint.verify.shadow): GPU-valid idioms run clean, device bugs raise PyTorch's
own errors with the creation site of the CPU tensor, and losses are bit-identical to the CPU.

The shadow is never installed in the pytest process: one child process runs every case
(tests/shadow_cases/run_cases.py) and writes a JSON of outcomes that the tests below read.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

pytest.importorskip("torch")

from shadow_cases.cases import (  # noqa: E402
    BAD, GOOD, MULTI_GPU_BAD, MULTI_GPU_GOOD, PREAMBLE, origin_line,
)

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "shadow_cases" / "run_cases.py"


def run_cases(tmp_path_factory, *mode: str) -> dict:
    out = tmp_path_factory.mktemp("shadow") / "outcomes.json"
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("DEVLINT_SHADOW_ALLOW_UNTESTED_TORCH", None)
    proc = subprocess.run([sys.executable, str(RUNNER), str(out), *mode], capture_output=True,
                          text=True, env=env, timeout=600)
    assert out.exists(), f"runner failed (rc {proc.returncode}):\n{proc.stderr[-4000:]}"
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    return run_cases(tmp_path_factory)


@pytest.fixture(scope="module")
def multi_gpu_outcomes(tmp_path_factory):
    """The cases of a torchrun rank on a simulated machine with one GPU per rank."""
    return run_cases(tmp_path_factory, "multi-gpu")


def test_there_are_enough_cases():
    assert len(GOOD) >= 40 and len(BAD) >= 20


@pytest.mark.parametrize("name", sorted(GOOD))
def test_gpu_valid_idiom_runs_clean(outcomes, name):
    assert_clean(outcomes["cases"][name])


def assert_clean(outcome: dict) -> None:
    assert outcome["raised"] is None, (
        f"{outcome['raised']}: {outcome['message']}\n{outcome['where']}")


@pytest.mark.parametrize("name", sorted(BAD))
def test_device_bug_raises_pytorchs_error(outcomes, name):
    assert_raised(outcomes["cases"][name], BAD[name])


def assert_raised(outcome: dict, bad) -> None:
    assert outcome["raised"] == bad.error, outcome
    assert outcome["message"].split("\n")[0] == bad.message


@pytest.mark.parametrize("name", sorted(n for n, bad in BAD.items() if origin_line(bad.source)))
def test_error_points_at_the_line_that_created_the_cpu_tensor(outcomes, name):
    outcome, line = outcomes["cases"][name], origin_line(BAD[name].source)
    function = function_at(BAD[name].source, line)
    assert outcome["origin"] == {
        "path": f"/devlint-shadow-cases/{name}.py", "line": line, "function": function,
        "device": "cpu",
    }
    assert outcome["message"].split("\n")[1] == (
        f"The cpu tensor was created at /devlint-shadow-cases/{name}.py:{line} in {function}."
    )


def function_at(source: str, line: int) -> str:
    """The name of the innermost code object that runs `line` of a case, as the compiler makes
    it (`<module>`, a def's name, `<listcomp>` where a comprehension is a function of its own):
    found without the shadow's frame walk, so that walk is checked against it."""
    def innermost(code: types.CodeType, depth: int) -> tuple[int, str] | None:
        found = (depth, code.co_name) if any(at == line for *_, at in code.co_lines()) else None
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                inner = innermost(const, depth + 1)
                if inner is not None and (found is None or inner[0] > found[0]):
                    found = inner
        return found

    located = innermost(compile(PREAMBLE + source, "case", "exec"), 0)
    assert located is not None, f"no code runs line {line}"
    return located[1]


@pytest.mark.parametrize("name", sorted(MULTI_GPU_GOOD))
def test_multi_gpu_idiom_runs_clean(multi_gpu_outcomes, name):
    assert_clean(multi_gpu_outcomes["cases"][name])


@pytest.mark.parametrize("name", sorted(MULTI_GPU_BAD))
def test_multi_gpu_bug_raises_pytorchs_error(multi_gpu_outcomes, name):
    assert_raised(multi_gpu_outcomes["cases"][name], MULTI_GPU_BAD[name])


@pytest.mark.parametrize("name", sorted(n for n, bad in MULTI_GPU_BAD.items()
                                        if origin_line(bad.source)))
def test_multi_gpu_error_points_at_the_tensor_off_the_ranks_gpu(multi_gpu_outcomes, name):
    """On rank 1, a tensor on cuda:0 is the misplaced one: its creation line is named."""
    outcome, line = multi_gpu_outcomes["cases"][name], origin_line(MULTI_GPU_BAD[name].source)
    assert outcome["origin"]["line"] == line
    assert outcome["origin"]["function"] == function_at(MULTI_GPU_BAD[name].source, line)
    device = outcome["origin"]["device"]
    assert device in ("cpu", "cuda:0")
    assert f"The {device} tensor was created at /devlint-shadow-cases/{name}.py:{line}" in (
        outcome["message"])


def test_origin_names_the_function(outcomes):
    assert outcomes["cases"]["tensor_created_in_forward"]["origin"]["function"] == "forward"
    assert outcomes["cases"]["plain_tensor_attribute"]["origin"]["function"] == "__init__"


def test_losses_are_bit_identical_to_the_cpu_run(outcomes):
    plain, shadowed = outcomes["plain_losses"], outcomes["shadow_losses"]
    assert len(plain) == 30 and len(set(plain)) > 1
    assert shadowed == plain


def test_unknown_torch_version_is_refused(outcomes):
    assert "written against torch 2.13" in outcomes["refusal"]
    assert "9.9.0" in outcomes["refusal"]


def test_recorder_wrappers_before_and_after_install_still_see_calls(outcomes):
    """Tensor.to was wrapped before install(), the others after: all must keep working (every
    case ran with them) and still be called."""
    calls = outcomes["wrapper_calls"]
    for name in ("to", "cuda", "_apply", "backward", "step"):
        assert calls.get(name, 0) > 0, calls


def test_importing_devlint_does_not_import_torch():
    code = "import sys, devlint, devlint.cli, devlint.verify; print('torch' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"
