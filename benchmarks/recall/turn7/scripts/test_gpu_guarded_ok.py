"""Unit tests done right: the GPU test is skipped where there is no GPU."""
import pytest
import torch
import torch.nn as nn


def make():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 8), nn.Tanh())


def test_cpu_forward():
    assert make()(torch.randn(2, 8)).shape == (2, 8)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_gpu_matches_cpu():
    model = make()
    x = torch.randn(4, 8)
    ref = model(x)
    out = model.cuda()(x.cuda()).cpu()
    assert torch.allclose(out, ref, atol=1e-5)
