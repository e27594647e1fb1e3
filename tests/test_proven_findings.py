"""Findings that need proof (issue 27): a rule reports only what the model can show, never what
it merely cannot rule out."""
from __future__ import annotations

import textwrap

import pytest

from devlint.lint.analyze import analyze_source

GPU_TEST = textwrap.dedent("""\
    import torch


    def test_forward():
        model = torch.nn.Linear(4, 2).cuda()
        assert model(torch.ones(1, 4).cuda()).shape == (1, 2)
""")


def codes(source: str, path: str) -> set[str]:
    return {f.code for f in analyze_source(source, path)}


@pytest.mark.parametrize("path", ["test_model.py", "model_test.py", "tests/test_model.py",
                                  "pkg/test/checks_test.py"])
def test_dev022_reports_tests_in_modules_a_runner_collects(path: str) -> None:
    assert "DEV022" in codes(GPU_TEST, path)


@pytest.mark.parametrize("path", ["conftest.py", "tests/model.py", "pkg/test/checks.py",
                                  "tests/attention_benchmark.py"])
def test_dev022_leaves_modules_no_runner_collects_by_default(path: str) -> None:
    """pytest collects `test_*.py` and `*_test.py`, unittest `test*.py`: a benchmark or a
    helper under `tests/` with another name, and a conftest, hold no collected test."""
    assert "DEV022" not in codes(GPU_TEST, path)


def test_dev022_leaves_a_test_function_its_own_script_calls_with_arguments() -> None:
    """An evaluation script named `test_classification.py` whose `main` calls
    `test(model, loader)`: the function is the script's step, not a test."""
    script = GPU_TEST.replace("def test_forward():", "def test(model, loader):") + (
        "\n\nif __name__ == '__main__':\n    test(None, [])\n")
    assert "DEV022" not in codes(script, "test_classification.py")
    assert "DEV022" in codes(GPU_TEST.replace("def test_forward():", "def test(model, loader):"),
                             "test_classification.py")


@pytest.mark.parametrize("path", ["train.py", "scripts/evaluate.py", "testing_utils.py"])
def test_dev022_leaves_a_scripts_own_test_function_alone(path: str) -> None:
    """`def test(model, loader):` in a training script is its evaluation step: no runner
    collects it, so no skip marker is missing."""
    assert "DEV022" not in codes(GPU_TEST, path)


def test_dev022_reports_a_testcase_method_in_any_module() -> None:
    """unittest discovers `TestCase` classes wherever they are imported from, through a base
    class of the project's own too."""
    source = textwrap.dedent("""\
        import unittest
        import torch


        class GpuCase(unittest.TestCase):
            pass


        class ModelChecks(GpuCase):
            def test_forward(self):
                self.assertTrue(torch.ones(1).cuda().is_cuda)
    """)
    assert "DEV022" in codes(source, "checks.py")


EVERY_RANK_LOAD = textwrap.dedent("""\
    import os
    from pathlib import Path

    import torch
    import torch.distributed as dist

    dist.init_process_group("nccl")
    rank = dist.get_rank()
    world_size = dist.get_world_size()
    torch.cuda.set_device(rank)  # each rank's own GPU: cuda:0 is rank 0's
    model = torch.nn.Linear(4, 2).cuda()
    state = torch.load({path})
    model.load_state_dict(state)
""")


@pytest.mark.parametrize("path", [
    '"ckpt_%d.pt" % rank', '"ckpt_{}.pt".format(dist.get_rank())', 'Path("out") / f"rank{rank}.pt"',
    'os.path.join("out", "queue" + os.environ["LOCAL_RANK"] + ".pth")',
])
def test_dev008_a_file_of_each_ranks_own_loads_onto_that_rank(path: str) -> None:
    """A path built from the rank names the file that rank wrote from its own GPU: no rank
    loads onto another's."""
    assert "DEV008" not in codes(EVERY_RANK_LOAD.format(path=path), "train.py")


@pytest.mark.parametrize("path", ['"ranking.pt"', 'f"ckpt_ws{world_size}.pt"', '"ckpt.pt"'])
def test_dev008_a_file_every_rank_shares_still_loads_onto_cuda0(path: str) -> None:
    assert "DEV008" in codes(EVERY_RANK_LOAD.format(path=path), "train.py")


@pytest.mark.parametrize("receiver, silent", [
    ("scheduler", True), ("self.lr_scheduler", True), ("sched", True), ("optimizer", False),
    ("model", False),
])
def test_dev008_an_lr_schedulers_state_holds_no_tensors(receiver: str, silent: bool) -> None:
    """`scheduler.load_state_dict(torch.load(path))` reads numbers (a step, base rates): nothing
    in it is restored onto a device, so no machine fails to load it."""
    source = textwrap.dedent(f"""\
        import torch


        def resume(self, model, optimizer, scheduler, sched, path):
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            {receiver}.load_state_dict(torch.load(path))
            return device
    """)
    assert ("DEV008" not in codes(source, "train.py")) is silent
