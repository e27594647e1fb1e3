"""The naming conventions devlint trusts for values of unknown origin (lint/model/conventions.py),
and DEV001's silence inside tests: each documented, each shown here by a finding it makes or
keeps away, next to a name or a place that does not."""
from __future__ import annotations

import pytest

from devlint.lint.analyze import analyze_source

LOOP = """\
import torch
import torch.nn.functional as F
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
def train(model, {name}, opt):
    model.to(device)
    for xb, yb in {name}:
        loss = F.cross_entropy(model(xb.to(device)), yb)
        opt.zero_grad(); loss.backward(); opt.step()
"""


def findings(source: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in analyze_source(source, "train.py")]


@pytest.mark.parametrize("name", ["dl", "train_dl", "val_dl", "dls", "train_dls", "train_loader"])
def test_an_iterable_named_like_a_loader_yields_cpu_batches(name: str) -> None:
    """`yb` comes from a data loader, so it is on the CPU when the loss meets the model's output."""
    assert findings(LOOP.format(name=name)) == [(7, "DEV004")]


@pytest.mark.parametrize("name", ["batches_seen", "idl", "dlx", "handle"])
def test_other_names_are_not_loaders(name: str) -> None:
    assert findings(LOOP.format(name=name)) == []


PLACED = """\
import torch
def run(args, cfg, {parameter}):
    model = torch.nn.Linear(4, 2).to({value})
    x = torch.randn(3, 4)
    return model(x)
"""


@pytest.mark.parametrize("value", ["gpu_id", "cuda_id", "args.gpu_id", "cfg.cuda_id", "dev",
                                   "args.device"])
def test_a_value_named_like_a_device_is_the_accelerator(value: str) -> None:
    """The model goes to the device the name stands for; the batch made on the CPU meets it."""
    parameter = value.split(".")[-1]
    assert findings(PLACED.format(parameter=parameter, value=value)) == [(4, "DEV006")]


@pytest.mark.parametrize("value", ["gpu_ids", "args.cuda_ids", "cfg.device_count", "thing"])
def test_other_names_are_not_devices(value: str) -> None:
    parameter = value.split(".")[-1]
    assert findings(PLACED.format(parameter=parameter, value=value)) == []


def test_a_method_attribute_named_like_a_device_is_the_accelerator() -> None:
    source = """\
import torch
class Trainer:
    def run(self):
        model = torch.nn.Linear(4, 2).to(self.gpu_id)
        return model(torch.randn(3, 4))
"""
    assert findings(source) == [(5, "DEV006")]


PINNED = """\
import torch
{header}
        layer = torch.nn.Linear(4, 2).cuda()
        assert layer(torch.randn(3, 4, device="cuda")).is_cuda
"""


@pytest.mark.parametrize("header, found", [
    ("if True:\n    def test_linear():", []),
    ("class TestLinear:\n    def test_forward(self):", []),
    ("class LinearTests:\n    def check_forward(self):", []),
    ("if True:\n    def build_linear():", [(4, "DEV001")]),
    ("class Trainer:\n    def forward(self):", [(4, "DEV001")]),
], ids=["test function", "method of a Test class", "method of a *Tests class", "function",
        "method"])
def test_dev001_is_silent_inside_tests(header: str, found: list) -> None:
    """A test pins its device on purpose; the same lines outside a test have no CPU fallback
    (one finding: the file never chooses a device with one)."""
    assert [f for f in findings(PINNED.format(header=header)) if f[1] == "DEV001"] == found


def test_dev001_names_a_built_device_by_its_expression_not_as_a_literal() -> None:
    """`cudaid = "cuda:" + str(args.dev)` is no literal 'cudaid': the message quotes the code."""
    from devlint.lint.analyze import analyze_source

    source = ("import argparse\nimport torch\nargs = argparse.ArgumentParser().parse_args()\n"
              "cudaid = 'cuda:' + str(args.dev)\ndevice = torch.device(cudaid)\n"
              "x = torch.zeros(2).to(device)\n")
    messages = [f.message for f in analyze_source(source, "t.py") if f.code == "DEV001"]
    assert len(messages) == 1 and "`cudaid` (always CUDA)" in messages[0], messages
