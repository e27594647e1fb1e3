"""Clip-level sound event tagging (multi-label) with a CRNN on log-mel patches.

Rare events are up-weighted with pos_weight = negatives / positives from the training labels.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MultilabelF1Score

EVENTS = ["speech", "dog", "alarm", "glass", "engine", "door"]
N_MELS, FRAMES = 40, 64


def make_split(n, rng):
    y = (rng.random((n, len(EVENTS))) < np.array([0.6, 0.2, 0.1, 0.05, 0.3, 0.15])).astype(np.float32)
    x = rng.standard_normal((n, 1, N_MELS, FRAMES)).astype(np.float32) * 0.5
    for k in range(len(EVENTS)):
        x[y[:, k] == 1, 0, 5 * k:5 * k + 5, :] += 2.0
    return torch.from_numpy(x), torch.from_numpy(y)


class CRNN(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d((4, 1)),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d((5, 1)),
        )
        self.gru = nn.GRU(64 * 2, 64, batch_first=True, bidirectional=True)
        self.head = nn.Linear(128, n_classes)

    def forward(self, x):
        h = self.cnn(x)                          # (B, 64, 2, T)
        h = h.flatten(1, 2).transpose(1, 2)     # (B, T, 128)
        h, _ = self.gru(h)
        return self.head(h).max(dim=1).values   # clip logits via max pooling over time


def main():
    rng = np.random.default_rng(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x_tr, y_tr = make_split(400, rng)
    x_va, y_va = make_split(100, rng)
    train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=64)

    pos = y_tr.sum(0)
    pos_weight = (len(y_tr) - pos) / pos.clamp(min=1)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)  # expect: DEV012

    model = CRNN(len(EVENTS)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    f1 = MultilabelF1Score(num_labels=len(EVENTS), average="macro", threshold=0.5)  # expect: DEV019

    for epoch in range(3):
        model.train()
        for xb, yb in train_dl:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()

        model.eval()
        f1.reset()
        with torch.no_grad():
            for xb, yb in val_dl:
                probs = torch.sigmoid(model(xb.to(device)))
                f1.update(probs, yb.to(device).int())
        print(f"epoch {epoch} loss {loss.item():.3f} val macro-F1 {f1.compute().item():.3f}")


if __name__ == "__main__":
    main()
