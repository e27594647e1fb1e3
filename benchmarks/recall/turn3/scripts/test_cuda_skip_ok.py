"""CUDA tests that skip on CPU-only runners: unittest.skipIf, a pytest skipif marker, a device list built
from what exists, and pytest.param with a skip mark."""
import unittest

import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


class ConvTest(unittest.TestCase):
    @unittest.skipIf(not torch.cuda.is_available(), "CUDA not available")
    def test_half_precision_on_gpu(self):
        conv = nn.Conv2d(3, 8, 3).cuda().half()
        out = conv(torch.randn(1, 3, 16, 16, device="cuda", dtype=torch.half))
        self.assertEqual(out.dtype, torch.half)


@requires_cuda
def test_pinned_copy():
    x = torch.randn(1024).pin_memory()
    assert torch.equal(x.to("cuda", non_blocking=True).cpu(), x)


@pytest.mark.parametrize("device", DEVICES)
def test_linear_runs(device):
    layer = nn.Linear(4, 2).to(device)
    assert layer(torch.randn(3, 4, device=device)).device.type == device


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=requires_cuda)])
def test_softmax_sums_to_one(device):
    p = torch.randn(5, 7, device=device).softmax(-1)
    torch.testing.assert_close(p.sum(-1), torch.ones(5, device=device))
