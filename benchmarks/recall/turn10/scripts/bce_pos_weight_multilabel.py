"""Multi-label tagging of short clips: BCEWithLogitsLoss with a per-label pos_weight computed from
the label frequencies of the training set.

Thread: https://github.com/sacdallago/biotrainer/issues/67 (class weights need to be sent to the
device when use_class_weights=True).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

N_LABELS = 6


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    feats = torch.randn(800, 40)
    targets = (torch.rand(800, N_LABELS) < torch.tensor([0.4, 0.2, 0.1, 0.05, 0.3, 0.02])).float()
    positives = targets.sum(0)
    pos_weight = (len(targets) - positives) / positives.clamp(min=1)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)  # expect: DEV012
    model = nn.Sequential(nn.Linear(40, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, N_LABELS)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(feats, targets), batch_size=64, shuffle=True)
    for epoch in range(4):
        total = 0.0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / len(loader):.4f}")


if __name__ == "__main__":
    main()
