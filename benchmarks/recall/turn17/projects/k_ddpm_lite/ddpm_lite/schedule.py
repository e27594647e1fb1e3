import math

import torch
import torch.nn as nn


def extract(values, t, ndim):
    """values[t] reshaped to broadcast against a (B, ...) tensor with `ndim` dims."""
    return values.gather(0, t).view(-1, *([1] * (ndim - 1)))


def cosine_betas(T, s=0.008):
    x = torch.linspace(0, T, T + 1, dtype=torch.float64)
    ac = torch.cos(((x / T) + s) / (1 + s) * math.pi * 0.5) ** 2
    ac = ac / ac[0]
    return (1 - ac[1:] / ac[:-1]).clamp(1e-5, 0.999).float()


class NoiseSchedule(nn.Module):
    """Holds the forward-process coefficients as buffers so they follow the model's device."""

    def __init__(self, T=1000, kind="cosine"):
        super().__init__()
        self.T = T
        betas = cosine_betas(T) if kind == "cosine" else torch.linspace(1e-4, 0.02, T)
        ac = torch.cumprod(1 - betas, dim=0)
        self.register_buffer("betas", betas)
        self.register_buffer("alphas_cumprod", ac)
        self.register_buffer("sqrt_ac", ac.sqrt())
        self.register_buffer("sqrt_one_minus_ac", (1 - ac).sqrt())

    def q_sample(self, x0, t, noise):
        n = x0.dim()
        return extract(self.sqrt_ac, t, n) * x0 + extract(self.sqrt_one_minus_ac, t, n) * noise

    def sample_timesteps(self, batch, device):
        return torch.randint(0, self.T, (batch,), device=device)
