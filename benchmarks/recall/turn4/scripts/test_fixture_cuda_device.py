"""pytest suite for a fused layer-norm replacement, run on the GPU through a fixture."""
import pytest
import torch
import torch.nn as nn


class SimpleRMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


@pytest.fixture
def device():
    return torch.device("cuda")  # expect: DEV022


def test_rmsnorm_matches_reference(device):
    norm = SimpleRMSNorm(64).to(device)
    x = torch.randn(8, 64, device=device)
    ref = x / x.pow(2).mean(-1, keepdim=True).add(1e-6).sqrt()
    torch.testing.assert_close(norm(x), ref)


def test_rmsnorm_grad_flows(device):
    norm = SimpleRMSNorm(16).to(device)
    x = torch.randn(4, 16, device=device, requires_grad=True)
    norm(x).sum().backward()
    assert x.grad is not None and torch.isfinite(x.grad).all()
