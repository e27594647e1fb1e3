"""Sequence regressor with a hand-written sinusoidal positional encoding module."""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=500):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.pe = pe.unsqueeze(0)  # expect: DEV010

    def forward(self, x):
        x = x + self.pe[:, : x.size(1)]
        return self.dropout(x)


class SequenceRegressor(nn.Module):
    def __init__(self, n_features=3, d_model=16):
        super().__init__()
        self.input_proj = nn.Linear(n_features, d_model)
        self.pos = PositionalEncoding(d_model)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model, 2, 32, batch_first=True), 1)
        self.out = nn.Linear(d_model, 1)

    def forward(self, x):
        h = self.encoder(self.pos(self.input_proj(x)))
        return self.out(h.mean(dim=1)).squeeze(-1)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
seqs = torch.randn(40, 12, 3)
target = seqs.sum(dim=(1, 2))
loader = DataLoader(TensorDataset(seqs, target), batch_size=8, shuffle=True)
model = SequenceRegressor().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} mse {loss.item():.3f}")
