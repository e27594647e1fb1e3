"""Encoder-decoder forecaster: a GRU encodes the window, the decoder reads calendar features."""
import torch
import torch.nn as nn


class Forecaster(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.enc = nn.GRU(1, hidden, batch_first=True)
        self.dec = nn.Linear(hidden + 2, 1)

    def forward(self, window, calendar):
        _, h = self.enc(window.unsqueeze(-1))
        h = h[-1].unsqueeze(1).expand(-1, calendar.size(0), -1)
        cal = calendar.unsqueeze(0).expand(window.size(0), -1, -1)
        return self.dec(torch.cat([h, cal], dim=-1)).squeeze(-1)
