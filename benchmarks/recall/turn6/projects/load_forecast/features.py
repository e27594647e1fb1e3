"""Feature engineering: sliding windows over the series and calendar encodings."""
import math

import torch


def sliding_windows(series, window, horizon):
    n = len(series) - window - horizon + 1
    idx = torch.arange(window)[None, :] + torch.arange(n)[:, None]
    tgt = torch.arange(horizon)[None, :] + torch.arange(n)[:, None] + window
    return series[idx], series[tgt]


def calendar_encoding(horizon, period=24):
    steps = torch.arange(horizon, dtype=torch.float32)  # expect: DEV006
    angle = 2 * math.pi * steps / period
    return torch.stack([angle.sin(), angle.cos()], dim=-1)
