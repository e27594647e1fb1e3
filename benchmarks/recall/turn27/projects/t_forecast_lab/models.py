import torch
import torch.nn as nn


class GRUForecaster(nn.Module):
    def __init__(self, n_features, hidden, layers, horizon):
        super().__init__()
        self.hidden, self.layers = hidden, layers
        self.gru = nn.GRU(n_features, hidden, layers, batch_first=True, dropout=0.1)
        self.head = nn.Linear(hidden, horizon)

    def init_hidden(self, batch_size):
        return torch.zeros(self.layers, batch_size, self.hidden)  # expect: DEV006

    def forward(self, x):
        out, _ = self.gru(x, self.init_hidden(x.size(0)))
        return self.head(out[:, -1])
