"""Predict the next heart-rate reading from irregular-length vitals histories.

Histories have different lengths, so batches are padded and packed; the GRU
starts from a zero state made next to the input.
"""
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset


class VitalsHistories(Dataset):
    def __init__(self, n=500, seed=0):
        rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n):
            length = int(rng.integers(10, 60))
            base = rng.uniform(60, 90)
            t = np.arange(length + 1)
            hr = base + 8 * np.sin(t / rng.uniform(3, 9)) + rng.normal(0, 1.5, length + 1)
            spo2 = 97 + rng.normal(0, 0.7, length + 1)
            feats = np.stack([(hr - 75) / 10, (spo2 - 97) / 1], axis=1)
            self.items.append((feats[:-1], feats[-1, 0]))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        x, y = self.items[i]
        return torch.from_numpy(x), torch.tensor(y)


def collate(batch):
    seqs, targets = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int64)
    return pad_sequence(seqs, batch_first=True).float(), lengths, torch.stack(targets).float()


class NextValueGRU(nn.Module):
    def __init__(self, n_feats=2, hidden=48, layers=2):
        super().__init__()
        self.hidden, self.layers = hidden, layers
        self.gru = nn.GRU(n_feats, hidden, layers, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def init_hidden(self, x):
        return x.new_zeros(self.layers, x.size(0), self.hidden)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed, self.init_hidden(x))
        return self.out(h[-1]).squeeze(-1)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(VitalsHistories(500, 0), batch_size=32, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(VitalsHistories(100, 1), batch_size=100, collate_fn=collate)
    model = NextValueGRU().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(4):
        model.train()
        for x, lengths, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.mse_loss(model(x, lengths), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}  mse {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        x, lengths, y = next(iter(val_loader))
        pred = model(x.to(device), lengths).cpu()
    err = (pred - y).abs().numpy() * 10
    print(f"val MAE {err.mean():.2f} bpm")
    plt.figure(figsize=(4, 4))
    plt.scatter(y.numpy() * 10 + 75, pred.numpy() * 10 + 75, s=8)
    plt.xlabel("true HR")
    plt.ylabel("predicted HR")
    plt.savefig(os.path.join(tempfile.gettempdir(), "vitals_scatter.png"))


if __name__ == "__main__":
    main()
