"""Fine-tune a pretrained 1-D CNN encoder on a new label set.

The pretraining checkpoint has a 10-way head; the downstream task has 4 classes, so the head
is swapped for a fresh one and only the head plus the last block are trained.
"""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv1d(2, ch, 5, padding=2), nn.BatchNorm1d(ch), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv1d(ch, 2 * ch, 5, padding=2), nn.BatchNorm1d(2 * ch), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool1d(1)
        self.out_dim = 2 * ch

    def forward(self, x):
        return self.pool(self.block2(self.block1(x))).flatten(1)


class Classifier(nn.Module):
    def __init__(self, encoder, n_classes):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(encoder.out_dim, n_classes)

    def forward(self, x):
        return self.head(self.encoder(x))


def load_pretrained(path):
    model = Classifier(Encoder(), n_classes=10)
    if path and os.path.exists(path):
        model.load_state_dict(torch.load(path, map_location="cpu"))
    return model


def prepare_for_task(model, n_classes, freeze_first_block=True):
    """Swap the classification head and freeze the early layers."""
    model.head = nn.Linear(model.encoder.out_dim, n_classes)
    if freeze_first_block:
        for p in model.encoder.block1.parameters():
            p.requires_grad = False
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pretrained", default="")
    ap.add_argument("--epochs", type=int, default=3)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    g = torch.Generator().manual_seed(2)
    x = torch.randn(256, 2, 50, generator=g)
    y = torch.randint(0, 4, (256,), generator=g)
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)

    model = load_pretrained(args.pretrained)
    model = prepare_for_task(model, n_classes=4).to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.3f}")


if __name__ == "__main__":
    main()
