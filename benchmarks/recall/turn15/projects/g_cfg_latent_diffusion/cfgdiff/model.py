import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, ch, emb_dim):
        super().__init__()
        self.norm1 = nn.GroupNorm(8, ch)
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.emb = nn.Linear(emb_dim, ch)
        self.norm2 = nn.GroupNorm(8, ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x, emb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.emb(emb)[:, :, None, None]
        return x + self.conv2(F.silu(self.norm2(h)))


class LatentDenoiser(nn.Module):
    """epsilon-prediction network; label `num_classes` means "unconditional"."""

    def __init__(self, cfg):
        super().__init__()
        self.null_class = cfg.num_classes
        self.p_uncond = cfg.p_uncond
        self.width = cfg.width
        self.class_emb = nn.Embedding(cfg.num_classes + 1, cfg.width)
        self.time_mlp = nn.Sequential(nn.Linear(cfg.width, cfg.width), nn.SiLU(), nn.Linear(cfg.width, cfg.width))
        self.conv_in = nn.Conv2d(cfg.latent_channels, cfg.width, 3, padding=1)
        self.blocks = nn.ModuleList([ResBlock(cfg.width, cfg.width) for _ in range(2)])
        self.conv_out = nn.Conv2d(cfg.width, cfg.latent_channels, 3, padding=1)

    def forward(self, x, t, y):
        if self.training and self.p_uncond > 0:
            drop = torch.rand(y.shape[0], device=y.device) < self.p_uncond
            y = y.masked_fill(drop, self.null_class)
        emb = self.time_mlp(timestep_embedding(t, self.width)) + self.class_emb(y)
        h = self.conv_in(x)
        for blk in self.blocks:
            h = blk(h, emb)
        return self.conv_out(h)
