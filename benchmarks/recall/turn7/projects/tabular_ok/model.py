"""An MLP with input standardisation kept in buffers."""
import torch
import torch.nn as nn


class RiskMLP(nn.Module):
    def __init__(self, n_features, hidden):
        super().__init__()
        self.register_buffer("mean", torch.zeros(n_features))
        self.register_buffer("std", torch.ones(n_features))
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net((x - self.mean) / self.std).squeeze(-1)
