"""Denoiser MLP with a sinusoidal timestep embedding."""
import math

import torch
import torch.nn as nn


class SinusoidalEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=t.device, dtype=torch.float32) / half)
        args = t.float()[:, None] * freqs[None, :]
        return torch.cat([args.sin(), args.cos()], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, hidden=128, time_dim=32):
        super().__init__()
        self.time = nn.Sequential(SinusoidalEmbedding(time_dim), nn.Linear(time_dim, hidden), nn.SiLU())
        self.inp = nn.Linear(2, hidden)
        self.blocks = nn.ModuleList([nn.Sequential(nn.LayerNorm(hidden), nn.Linear(hidden, hidden), nn.SiLU())
                                     for _ in range(3)])
        self.out = nn.Linear(hidden, 2)

    def forward(self, x, t):
        h = self.inp(x) + self.time(t)
        for block in self.blocks:
            h = h + block(h)
        return self.out(h)


def build_denoiser(cfg):
    return Denoiser(cfg.hidden, cfg.time_dim)
