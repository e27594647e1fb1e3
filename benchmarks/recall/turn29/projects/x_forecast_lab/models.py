"""GRU encoder with an autoregressive decoder that feeds each step's prediction back."""
import torch
import torch.nn as nn


class Seq2SeqForecaster(nn.Module):
    def __init__(self, hidden, horizon):
        super().__init__()
        self.horizon = horizon
        self.encoder = nn.GRU(1, hidden, batch_first=True)
        self.decoder = nn.GRUCell(1, hidden)
        self.proj = nn.Linear(hidden, 1)

    def forward(self, x, teacher=None, tf_ratio=0.0):
        _, h = self.encoder(x)
        h = h[0]
        step_in = torch.zeros(x.size(0), 1)  # expect: DEV006
        outputs = []
        for t in range(self.horizon):
            h = self.decoder(step_in, h)
            y_t = self.proj(h)
            outputs.append(y_t)
            if teacher is not None and torch.rand(()).item() < tf_ratio:
                step_in = teacher[:, t:t + 1]
            else:
                step_in = y_t
        return torch.cat(outputs, dim=1)
