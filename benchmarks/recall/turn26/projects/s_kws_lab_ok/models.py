import torch
import torch.nn as nn


class TemporalBlock(nn.Module):
    def __init__(self, c, dilation):
        super().__init__()
        self.conv = nn.Conv1d(c, c, 3, padding=dilation, dilation=dilation)
        self.bn = nn.BatchNorm1d(c)

    def forward(self, x):
        return x + torch.relu(self.bn(self.conv(x)))


class AttentivePool(nn.Module):
    """Attention pooling over time with a learned linear recency bias."""

    def __init__(self, c):
        super().__init__()
        self.score = nn.Conv1d(c, 1, 1)
        self.recency = nn.Parameter(torch.zeros(1))

    def forward(self, h):
        t = h.size(-1)
        ramp = torch.linspace(-1.0, 0.0, t, device=h.device, dtype=h.dtype)
        w = (self.score(h).squeeze(1) + self.recency * ramp).softmax(dim=-1)
        return (h * w.unsqueeze(1)).sum(dim=-1)


class KWSNet(nn.Module):
    def __init__(self, n_mels, channels, n_words):
        super().__init__()
        self.stem = nn.Conv1d(n_mels, channels, 5, padding=2)
        self.blocks = nn.Sequential(*[TemporalBlock(channels, d) for d in (1, 2, 4)])
        self.pool = AttentivePool(channels)
        self.head = nn.Linear(channels, n_words)

    def forward(self, feats):
        return self.head(self.pool(self.blocks(self.stem(feats))))


def build_model(cfg):
    return KWSNet(cfg.n_mels, cfg.channels, cfg.n_words)
