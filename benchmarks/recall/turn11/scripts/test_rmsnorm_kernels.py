"""Unit tests for a hand-written RMSNorm layer: outputs against a float64 reference, gradients on
each device, half precision on the GPU.

Threads: https://github.com/openvinotoolkit/nncf/pull/2605 (Added torch cuda test skipping in
case it is run on a CPU-only machine) and https://github.com/meta-pytorch/torchrec/pull/3385
(tests without the skip decorator made the CPU unit-test CI fail).
"""
import pytest
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def reference(x, weight, eps=1e-6):
    x64 = x.double()
    out = x64 / torch.sqrt(x64.pow(2).mean(-1, keepdim=True) + eps) * weight.double()
    return out.to(x.dtype)


def test_matches_reference_on_cpu():
    norm = RMSNorm(16)
    x = torch.randn(4, 16)
    torch.testing.assert_close(norm(x), reference(x, norm.weight))


def test_matches_reference_on_gpu():
    norm = RMSNorm(16).cuda()  # expect: DEV022
    x = torch.randn(4, 16, device="cuda")
    torch.testing.assert_close(norm(x), reference(x, norm.weight))


@pytest.mark.parametrize("device", [
    "cpu",
    "cuda",  # expect: DEV022
])
def test_backward_shapes(device):
    norm = RMSNorm(8).to(device)
    x = torch.randn(3, 8, device=device, requires_grad=True)
    norm(x).sum().backward()
    assert x.grad.shape == x.shape
    assert norm.weight.grad.shape == (8,)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_half_precision_on_gpu():
    norm = RMSNorm(16).cuda().half()
    x = torch.randn(2, 16, device="cuda", dtype=torch.float16)
    assert norm(x).dtype == torch.float16
