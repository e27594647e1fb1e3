"""Tabular binary classifier: entity embeddings for categorical columns plus
standardised numeric columns, dict batches from a Dataset, BCE with logits.
"""
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class TabConfig:
    cardinalities: dict = field(default_factory=lambda: {"city": 12, "device_type": 4, "plan": 5})
    num_numeric: int = 3
    emb_dim: int = 6
    hidden: int = 64
    lr: float = 2e-3
    epochs: int = 3
    batch_size: int = 64


class TabData(Dataset):
    def __init__(self, cfg, n=800, seed=0):
        rng = np.random.default_rng(seed)
        self.cats = {k: rng.integers(0, c, n) for k, c in cfg.cardinalities.items()}
        self.num = rng.standard_normal((n, cfg.num_numeric)).astype(np.float32)
        logit = self.num[:, 0] - 0.5 * self.num[:, 1] + (self.cats["plan"] >= 3) - 0.3
        self.y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        item = {k: torch.tensor(v[i]) for k, v in self.cats.items()}
        item["numeric"] = torch.from_numpy(self.num[i])
        item["target"] = torch.tensor(self.y[i])
        return item


class EntityEmbeddingNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cat_names = list(cfg.cardinalities)
        self.embeddings = nn.ModuleDict({name: nn.Embedding(card, cfg.emb_dim) for name, card in cfg.cardinalities.items()})
        in_dim = cfg.emb_dim * len(self.cat_names) + cfg.num_numeric
        self.mlp = nn.Sequential(nn.Linear(in_dim, cfg.hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(cfg.hidden, 1))
        for emb in self.embeddings.values():
            nn.init.normal_(emb.weight, std=0.05)

    def forward(self, batch):
        parts = [self.embeddings[name](batch[name]) for name in self.cat_names]
        parts.append(batch["numeric"])
        return self.mlp(torch.cat(parts, dim=1)).squeeze(1)


def to_device(batch, device, keys):
    return {k: batch[k].to(device) for k in keys}


def main():
    cfg = TabConfig()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    train = DataLoader(TabData(cfg), batch_size=cfg.batch_size, shuffle=True)
    model = EntityEmbeddingNet(cfg).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    criterion = nn.BCEWithLogitsLoss()
    feature_keys = model.cat_names + ["numeric", "target"]

    for epoch in range(cfg.epochs):
        model.train()
        total, correct, seen = 0.0, 0, 0
        for batch in train:
            inputs = to_device(batch, device, feature_keys)
            target = inputs.pop("target")
            logits = model(inputs)
            loss = criterion(logits, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(logits)
            correct += ((logits > 0).float() == target).sum().item()
            seen += len(logits)
        print(f"epoch {epoch}: loss {total / seen:.4f} acc {correct / seen:.3f}")


if __name__ == "__main__":
    main()
