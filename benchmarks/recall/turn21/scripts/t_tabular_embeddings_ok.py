"""Tabular binary classifier: categorical embeddings in an nn.ModuleList, labels moved with
the inputs, the optimizer state loaded after the model is on its device."""
import os
import tempfile
from dataclasses import dataclass, field

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class TabConfig:
    cardinalities: list = field(default_factory=lambda: [7, 12, 4, 30])
    n_continuous: int = 5
    hidden: int = 64
    lr: float = 1e-3
    batch_size: int = 64
    epochs: int = 1


def emb_dim(card):
    return min(16, (card + 1) // 2)


class TableDataset(Dataset):
    def __init__(self, cfg, n=512, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.cat = torch.stack([torch.randint(0, c, (n,), generator=g) for c in cfg.cardinalities], 1)
        self.num = torch.randn(n, cfg.n_continuous, generator=g)
        self.y = ((self.num[:, 0] + (self.cat[:, 0] % 2)) > 0.5).float()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"cat": self.cat[i], "num": self.num[i], "y": self.y[i]}


class TabularNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embeddings = nn.ModuleList(nn.Embedding(c, emb_dim(c)) for c in cfg.cardinalities)
        d_in = sum(emb_dim(c) for c in cfg.cardinalities) + cfg.n_continuous
        self.bn = nn.BatchNorm1d(cfg.n_continuous)
        self.mlp = nn.Sequential(nn.Linear(d_in, cfg.hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(cfg.hidden, 1))

    def forward(self, x_cat, x_num):
        embs = [emb(x_cat[:, i]) for i, emb in enumerate(self.embeddings)]
        return self.mlp(torch.cat(embs + [self.bn(x_num)], 1)).squeeze(-1)


def build(cfg, device, resume=None):
    model = TabularNet(cfg)
    start_epoch = 0
    ckpt = torch.load(resume, map_location="cpu") if resume is not None else None
    if ckpt is not None:
        model.load_state_dict(ckpt["model"])
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    if ckpt is not None:
        # the optimizer casts its state to the device of the (already moved) parameters
        optimizer.load_state_dict(ckpt["optimizer"])
        start_epoch = ckpt["epoch"] + 1
    return model, optimizer, start_epoch


def train_epoch(model, optimizer, loader, device):
    model.train()
    criterion = nn.BCEWithLogitsLoss()
    total = 0.0
    for batch in loader:
        x_cat = batch["cat"].to(device)
        x_num = batch["num"].to(device)
        logits = model(x_cat, x_num)
        loss = criterion(logits, batch["y"].to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


def main():
    cfg = TabConfig()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(TableDataset(cfg), batch_size=cfg.batch_size, shuffle=True)
    ckpt_path = os.path.join(tempfile.mkdtemp(), "tab.pt")

    model, optimizer, start = build(cfg, device)
    for epoch in range(start, cfg.epochs):
        print("epoch", epoch, round(train_epoch(model, optimizer, loader, device), 4))
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, ckpt_path)

    model, optimizer, start = build(cfg, device, resume=ckpt_path)
    for epoch in range(start, start + 1):
        print("resumed epoch", epoch, round(train_epoch(model, optimizer, loader, device), 4))


if __name__ == "__main__":
    main()
