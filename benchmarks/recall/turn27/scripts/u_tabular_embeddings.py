"""Churn prediction on a tabular dataset: categorical columns through entity embeddings,
numeric columns standardised inside the model with statistics from the training split."""
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TabConfig:
    cat_cardinalities: dict = field(default_factory=lambda: {"plan": 4, "region": 7, "device_os": 3})
    n_numeric: int = 5
    emb_dim: int = 4
    hidden: int = 32
    epochs: int = 3
    batch_size: int = 32
    lr: float = 2e-3
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


def make_table(n, cfg, seed=0):
    rng = np.random.default_rng(seed)
    cats = {c: rng.integers(0, k, n) for c, k in cfg.cat_cardinalities.items()}
    nums = rng.normal(loc=50.0, scale=12.0, size=(n, cfg.n_numeric)).astype(np.float32)
    y = (nums[:, 0] + 5 * cats["plan"] + rng.normal(size=n) > 60).astype(np.float32)
    return cats, nums, y


class ChurnNet(nn.Module):
    def __init__(self, cfg, num_mean, num_std):
        super().__init__()
        self.cat_names = list(cfg.cat_cardinalities)
        self.embeddings = {  # expect: DEV009
            name: nn.Embedding(card, cfg.emb_dim) for name, card in cfg.cat_cardinalities.items()
        }
        self.num_mean = torch.as_tensor(num_mean)  # expect: DEV010
        self.num_std = torch.as_tensor(num_std)  # expect: DEV010
        in_dim = cfg.emb_dim * len(self.cat_names) + cfg.n_numeric
        self.mlp = nn.Sequential(nn.Linear(in_dim, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, 1))

    def forward(self, x_cat, x_num):
        embs = [self.embeddings[n](x_cat[:, i]) for i, n in enumerate(self.cat_names)]
        x_num = (x_num - self.num_mean) / self.num_std
        return self.mlp(torch.cat(embs + [x_num], dim=1)).squeeze(1)


def main():
    cfg = TabConfig()
    device = torch.device(cfg.device)
    cats, nums, y = make_table(256, cfg)
    x_cat = torch.from_numpy(np.stack([cats[c] for c in cfg.cat_cardinalities], axis=1)).long()
    loader = DataLoader(TensorDataset(x_cat, torch.from_numpy(nums), torch.from_numpy(y)),
                        batch_size=cfg.batch_size, shuffle=True)

    model = ChurnNet(cfg, nums.mean(axis=0), nums.std(axis=0) + 1e-6).to(device)
    params = list(model.parameters()) + [p for e in model.embeddings.values() for p in e.parameters()]
    opt = torch.optim.Adam(params, lr=cfg.lr)
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(cfg.epochs):
        total = 0.0
        for xc, xn, yy in loader:
            xc, xn, yy = xc.to(device), xn.to(device), yy.to(device)
            loss = loss_fn(model(xc, xn), yy)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yy)
        print(f"epoch {epoch} bce {total / len(loader.dataset):.4f}")


if __name__ == "__main__":
    main()
