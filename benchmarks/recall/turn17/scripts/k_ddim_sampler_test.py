"""Unit tests for the DDIM sampling step used in the image pipeline."""
import math

import pytest
import torch
import torch.nn as nn


def ddim_step(x_t, eps, a_t, a_prev, eta=0.0, noise=None):
    x0 = (x_t - math.sqrt(1 - a_t) * eps) / math.sqrt(a_t)
    sigma = eta * math.sqrt((1 - a_prev) / (1 - a_t) * (1 - a_t / a_prev))
    out = math.sqrt(a_prev) * x0 + math.sqrt(max(1 - a_prev - sigma ** 2, 0.0)) * eps
    if sigma > 0:
        out = out + sigma * (noise if noise is not None else torch.randn_like(x_t))
    return out


class ZeroEps(nn.Module):
    def forward(self, x, t):
        return torch.zeros_like(x)


class LinearEps(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        torch.nn.init.eye_(self.lin.weight)
        torch.nn.init.zeros_(self.lin.bias)

    def forward(self, x, t):
        return 0.1 * self.lin(x)


def run_sampler(model, x, schedule, eta=0.0):
    for i in range(len(schedule) - 1, 0, -1):
        t = torch.full((x.shape[0],), i, device=x.device, dtype=torch.long)
        x = ddim_step(x, model(x, t), schedule[i], schedule[i - 1], eta)
    return x


SCHEDULE = [1.0 - 0.02 * k for k in range(20)]


def test_zero_eps_rescales_only():
    x = torch.ones(2, 4)
    out = ddim_step(x, torch.zeros_like(x), a_t=0.25, a_prev=1.0)
    assert torch.allclose(out, x / 0.5)


def test_deterministic_when_eta_zero():
    torch.manual_seed(0)
    x = torch.randn(3, 4)
    a = run_sampler(LinearEps(), x.clone(), SCHEDULE)
    b = run_sampler(LinearEps(), x.clone(), SCHEDULE)
    assert torch.equal(a, b)


@pytest.mark.parametrize("eta", [0.0, 0.5])
def test_shape_preserved(eta):
    x = torch.randn(5, 4)
    assert run_sampler(ZeroEps(), x, SCHEDULE, eta=eta).shape == x.shape


def test_gpu_matches_cpu():
    torch.manual_seed(0)
    model = LinearEps()
    x = torch.randn(8, 4)
    ref = run_sampler(model, x, SCHEDULE)
    dev = torch.device("cuda")  # expect: DEV022
    out = run_sampler(model.to(dev), x.to(dev), SCHEDULE)
    torch.testing.assert_close(out.cpu(), ref, rtol=1e-4, atol=1e-5)
