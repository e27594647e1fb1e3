"""Unit tests for the DDIM sampler helpers (pytest)."""
import math

import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def alphas_cumprod(T=1000):
    betas = torch.linspace(1e-4, 0.02, T, dtype=torch.float64)
    return torch.cumprod(1 - betas, 0).float()


def ddim_step(x, eps, a_t, a_prev):
    x0 = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
    return a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps


class ZeroEps(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.zeros(()))

    def forward(self, x, t):
        return self.scale * x


def run_sampler(model, shape, steps, device):
    ac = alphas_cumprod()
    seq = list(range(0, 1000, 1000 // steps))
    x = torch.randn(shape, device=device)
    for i, j in zip(reversed(seq), reversed([-1] + seq[:-1])):
        t = torch.full((shape[0],), i, device=device, dtype=torch.long)
        eps = model(x, t)
        x = ddim_step(x, eps, ac[i], ac[j] if j >= 0 else torch.tensor(1.0))
    return x


def test_schedule_is_decreasing():
    ac = alphas_cumprod()
    assert torch.all(ac[1:] < ac[:-1])
    assert math.isclose(ac[0].item(), 1 - 1e-4, rel_tol=1e-5)


def test_zero_eps_stays_finite():
    torch.manual_seed(0)
    out = run_sampler(ZeroEps(), (2, 1, 4, 4), steps=10, device="cpu")
    assert out.shape == (2, 1, 4, 4)
    assert torch.isfinite(out).all()


@requires_cuda
def test_sampler_runs_on_gpu():
    model = ZeroEps().cuda()
    out = run_sampler(model, (2, 1, 4, 4), steps=5, device="cuda")
    assert out.is_cuda


@pytest.mark.parametrize("device", [
    "cpu",
    pytest.param("cuda", marks=requires_cuda),
])
def test_sampler_device_param(device):
    out = run_sampler(ZeroEps().to(device), (1, 1, 2, 2), steps=4, device=device)
    assert out.device.type == device
