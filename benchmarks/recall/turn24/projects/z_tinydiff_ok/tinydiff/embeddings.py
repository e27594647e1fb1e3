import math

import torch


def sinusoidal_embedding(t, dim):
    """Transformer-style embedding of integer timesteps, shape (len(t), dim)."""
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    args = t.float()[:, None] * freqs[None, :]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=-1)
