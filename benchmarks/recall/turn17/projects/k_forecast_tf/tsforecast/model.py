import random

import torch
import torch.nn as nn


class Seq2SeqForecaster(nn.Module):
    """LSTM encoder over the lookback window, autoregressive LSTM decoder over the horizon."""

    def __init__(self, n_features, hidden, layers, horizon, dropout=0.0):
        super().__init__()
        self.horizon = horizon
        self.encoder = nn.LSTM(n_features, hidden, layers, batch_first=True, dropout=dropout)
        self.decoder = nn.LSTM(1, hidden, layers, batch_first=True, dropout=dropout)
        self.head = nn.Linear(hidden, 1)

    def forward(self, past, future=None, teacher_forcing=0.0):
        _, state = self.encoder(past)
        batch = past.size(0)
        dec_input = torch.zeros(batch, 1, 1)  # expect: DEV006
        outputs = []
        for t in range(self.horizon):
            out, state = self.decoder(dec_input, state)
            step = self.head(out)
            outputs.append(step)
            if future is not None and random.random() < teacher_forcing:
                dec_input = future[:, t:t + 1]
            else:
                dec_input = step.detach() if self.training else step
        return torch.cat(outputs, dim=1)
