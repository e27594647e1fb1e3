"""Short training run that keeps an exponential moving average of the weights and
reports validation accuracy for both the raw and the EMA weights every epoch."""
import copy
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    epochs: int = 2
    lr: float = 3e-3
    ema_decay: float = 0.99
    batch_size: int = 32
    n_classes: int = 6


class MLP(nn.Module):
    def __init__(self, n_in=20, n_classes=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 64), nn.GELU(), nn.LayerNorm(64),
                                 nn.Linear(64, n_classes))

    def forward(self, x):
        return self.net(x)


class EMA:
    def __init__(self, shadow, decay):
        self.shadow = shadow
        self.decay = decay
        self.shadow.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)


def loaders(cfg):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(256, 20, generator=g)
    y = torch.randint(0, cfg.n_classes, (256,), generator=g)
    tr = DataLoader(TensorDataset(x[:192], y[:192]), batch_size=cfg.batch_size, shuffle=True)
    va = DataLoader(TensorDataset(x[192:], y[192:]), batch_size=cfg.batch_size)
    return tr, va


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    hits = n = 0
    for x, y in loader:
        x = x.to(device)
        y.to(device)  # expect: DEV005
        hits += (model(x).argmax(-1) == y).sum().item()
        n += y.numel()
    return hits / n


def main(cfg=Config()):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MLP(n_classes=cfg.n_classes)
    ema = EMA(copy.deepcopy(model), cfg.ema_decay)  # expect: DEV016
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    train_loader, val_loader = loaders(cfg)

    for epoch in range(cfg.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update(model)
        raw_acc = accuracy(model, val_loader, device)
        ema_acc = accuracy(ema.shadow, val_loader, device)
        print(f"epoch {epoch}: acc={raw_acc:.3f} ema_acc={ema_acc:.3f}")


if __name__ == "__main__":
    main()
