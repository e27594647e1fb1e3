import torch
import torch.nn as nn


class DirectMultiHorizon(nn.Module):
    """GRU encoder over the history; one shared MLP decodes every horizon step from
    the final state plus a small encoding of the step index."""

    def __init__(self, n_series, hidden, horizon, step_dim=8):
        super().__init__()
        self.horizon = horizon
        self.encoder = nn.GRU(n_series, hidden, num_layers=2, batch_first=True, dropout=0.1)
        self.step_proj = nn.Linear(1, step_dim)
        self.decoder = nn.Sequential(
            nn.Linear(hidden + step_dim, hidden), nn.GELU(), nn.Linear(hidden, n_series)
        )

    def forward(self, x):
        _, h = self.encoder(x)
        h = h[-1]                                               # (B, hidden)
        steps = torch.arange(self.horizon, dtype=torch.float32) / self.horizon  # expect: DEV006
        step_feat = self.step_proj(steps.unsqueeze(-1))         # (H, step_dim)
        B = x.size(0)
        z = torch.cat([h.unsqueeze(1).expand(B, self.horizon, -1),
                       step_feat.unsqueeze(0).expand(B, -1, -1)], dim=-1)
        return self.decoder(z)                                  # (B, H, n_series)
