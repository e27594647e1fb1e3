"""Churn model for tabular data: categorical embeddings + standardised numerics, BCE with pos_weight."""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class TabConfig:
    cardinalities: tuple = (6, 20, 4)
    n_cont: int = 4
    hidden: int = 64
    lr: float = 2e-3
    epochs: int = 3


class ChurnData(Dataset):
    def __init__(self, cfg, n=600, seed=1):
        rng = np.random.default_rng(seed)
        self.cat = np.stack([rng.integers(0, c, n) for c in cfg.cardinalities], 1).astype(np.int64)
        self.cont = rng.lognormal(size=(n, cfg.n_cont))  # float64
        self.y = (rng.random(n) < 0.15).astype(np.float32)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.cat[i], self.cont[i], self.y[i]


class TabNet(nn.Module):
    def __init__(self, cfg, mean, std):
        super().__init__()
        self.embs = nn.ModuleList(nn.Embedding(c, min(8, c)) for c in cfg.cardinalities)
        self.register_buffer("mean", torch.as_tensor(mean, dtype=torch.float32))
        self.register_buffer("std", torch.as_tensor(std, dtype=torch.float32))
        d = sum(min(8, c) for c in cfg.cardinalities) + cfg.n_cont
        self.mlp = nn.Sequential(nn.Linear(d, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, 1))
        self.reset_parameters()

    def reset_parameters(self):
        for e in self.embs:
            nn.init.normal_(e.weight, std=0.05)
        for m in self.mlp:
            if isinstance(m, nn.Linear):
                nn.init.kaiming_uniform_(m.weight, nonlinearity="relu")
                nn.init.zeros_(m.bias)

    def forward(self, x_cat, x_cont):
        x_cont = (torch.log1p(x_cont) - self.mean) / self.std
        parts = [e(x_cat[:, j]) for j, e in enumerate(self.embs)] + [x_cont]
        return self.mlp(torch.cat(parts, 1)).squeeze(1)


def main(cfg=TabConfig()):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = ChurnData(cfg)
    logc = np.log1p(ds.cont)
    model = TabNet(cfg, logc.mean(0), logc.std(0) + 1e-6).to(device)
    pos_weight = torch.tensor([(1 - ds.y.mean()) / ds.y.mean()], dtype=torch.float32)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight.to(device))
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loader = DataLoader(ds, batch_size=64, shuffle=True)

    for epoch in range(cfg.epochs):
        for x_cat, x_cont, y in loader:
            x_cat = x_cat.to(device)
            x_cont = x_cont.to(device).float()
            y = y.to(device)
            loss = criterion(model(x_cat, x_cont), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
