import torch.nn as nn
import torch.nn.functional as F

from .embeddings import sinusoidal_embedding


class Denoiser(nn.Module):
    def __init__(self, channels=32, time_dim=32):
        super().__init__()
        self.time_dim = time_dim
        self.time_mlp = nn.Sequential(nn.Linear(time_dim, channels), nn.SiLU(), nn.Linear(channels, channels))
        self.inp = nn.Conv2d(1, channels, 3, padding=1)
        self.mid = nn.Conv2d(channels, channels, 3, padding=1)
        self.out = nn.Conv2d(channels, 1, 3, padding=1)

    def forward(self, x, t):
        temb = self.time_mlp(sinusoidal_embedding(t, self.time_dim))
        h = F.silu(self.inp(x)) + temb[:, :, None, None]
        h = F.silu(self.mid(h))
        return self.out(h)
