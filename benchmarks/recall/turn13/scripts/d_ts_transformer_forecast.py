"""Multi-series transformer forecaster: series-id embedding, sliding windows, per-series scaling.

Correct look-alike written from forecasting threads (etna "DL models fail when running on cuda
without categorical features" with `torch.Tensor()` placeholders, pytorch-forecasting "Predict on
GPU if network is on GPU", the causal-mask and positional-encoding reports): the positional table
is a buffer, the causal mask is made on the input's device, window batches move inside the loop,
and predictions leave via `.cpu().numpy()` before un-scaling.
"""
import math

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

LOOKBACK, HORIZON, N_SERIES = 32, 8, 5


class SeriesTransformer(nn.Module):
    def __init__(self, n_series=N_SERIES, dim=32, max_len=LOOKBACK):
        super().__init__()
        self.value_proj = nn.Linear(1, dim)
        self.series_emb = nn.Embedding(n_series, dim)
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))
        pe = torch.zeros(max_len, dim)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe, persistent=False)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(dim, HORIZON)

    def forward(self, window, series_id):
        t = window.size(1)
        h = self.value_proj(window.unsqueeze(-1)) + self.pe[:t] + self.series_emb(series_id)[:, None]
        mask = torch.triu(torch.full((t, t), float("-inf"), device=window.device), diagonal=1)
        return self.head(self.encoder(h, mask=mask)[:, -1])


def build_windows(seed=0):
    rng = np.random.default_rng(seed)
    xs, ys, ids, stats = [], [], [], []
    for s in range(N_SERIES):
        t = np.arange(400)
        raw = 10 * (s + 1) + (s + 2) * np.sin(2 * np.pi * t / (12 + 4 * s)) + rng.normal(0, 0.3, t.size)
        mu, sd = raw[:300].mean(), raw[:300].std()
        z = ((raw - mu) / sd).astype(np.float32)
        stats.append((mu, sd))
        for i in range(0, len(z) - LOOKBACK - HORIZON, 2):
            xs.append(z[i:i + LOOKBACK])
            ys.append(z[i + LOOKBACK:i + LOOKBACK + HORIZON])
            ids.append(s)
    return (torch.tensor(np.array(xs)), torch.tensor(np.array(ys)), torch.tensor(ids)), np.array(stats)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    (x, y, sid), stats = build_windows()
    loader = DataLoader(TensorDataset(x, y, sid), batch_size=64, shuffle=True)
    model = SeriesTransformer().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    for epoch in range(3):
        model.train()
        for xb, yb, ib in loader:
            xb, yb, ib = xb.to(device), yb.to(device), ib.to(device)
            loss = nn.functional.l1_loss(model(xb, ib), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: l1 {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(x[-16:].to(device), sid[-16:].to(device)).cpu().numpy()
    mu, sd = stats[sid[-16:].numpy()].T
    pred_units = pred * sd[:, None] + mu[:, None]
    truth_units = y[-16:].numpy() * sd[:, None] + mu[:, None]
    print(f"MAE in original units: {np.abs(pred_units - truth_units).mean():.3f}")


if __name__ == "__main__":
    main()
