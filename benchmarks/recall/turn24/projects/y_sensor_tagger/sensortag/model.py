import torch
import torch.nn as nn


class ConvTagger(nn.Module):
    """Temporal conv stack + learned position embedding, one logit vector per timestep."""

    def __init__(self, n_channels, n_classes, hidden, kernel, max_len=512):
        super().__init__()
        pad = kernel // 2
        self.inp = nn.Conv1d(n_channels, hidden, kernel, padding=pad)
        self.pos_emb = nn.Embedding(max_len, hidden)
        self.blocks = nn.Sequential(
            nn.Conv1d(hidden, hidden, kernel, padding=pad), nn.GELU(),
            nn.Conv1d(hidden, hidden, kernel, padding=2 * pad, dilation=2), nn.GELU(),
        )
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, x):
        h = self.inp(x).transpose(1, 2)  # (B, T, H)
        positions = torch.arange(h.size(1))  # expect: DEV006
        h = h + self.pos_emb(positions)
        h = self.blocks(h.transpose(1, 2)).transpose(1, 2)
        return self.out(h)  # (B, T, C)
