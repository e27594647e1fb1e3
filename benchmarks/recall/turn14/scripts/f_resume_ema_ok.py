"""Small CNN with an EMA of its weights, cosine schedule and full checkpoint resume.

Running the file trains 2 epochs, then restarts from the checkpoint for 2 more.
"""
import copy
import os
import tempfile
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    epochs: int = 4
    batch_size: int = 64
    lr: float = 3e-3
    ema_decay: float = 0.99
    ckpt_path: str = field(default_factory=lambda: os.path.join(tempfile.gettempdir(), "ema_cnn.pt"))
    device: str = field(default_factory=lambda: "cuda" if torch.cuda.is_available() else "cpu")


def stripes(n=1024, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    base = torch.sin(torch.arange(16.0) * 1.3)
    horiz = base.view(1, 16, 1).expand(n, 16, 16)
    vert = base.view(1, 1, 16).expand(n, 16, 16)
    x = torch.where(y.view(-1, 1, 1) == 1, horiz, vert) + 0.8 * torch.randn(n, 16, 16, generator=g)
    return TensorDataset(x.unsqueeze(1), y)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x)).mean(dim=(2, 3))
        return self.fc(x)


class EMA:
    def __init__(self, model, decay):
        self.decay = decay
        self.shadow = copy.deepcopy(model).eval()
        for p in self.shadow.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.lerp_(p, 1.0 - self.decay)


def evaluate(model, loader, device):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x.to(device)).argmax(1) == y.to(device)).sum().item()
    return correct / len(loader.dataset)


def train(cfg, epochs_this_run, resume):
    device = torch.device(cfg.device)
    train_loader = DataLoader(stripes(1024, 0), batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(stripes(256, 1), batch_size=256)

    model = SmallCNN().to(device)
    ema = EMA(model, cfg.ema_decay)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=cfg.epochs * len(train_loader))
    start = 0
    if resume and os.path.exists(cfg.ckpt_path):
        ckpt = torch.load(cfg.ckpt_path, map_location=device)
        model.load_state_dict(ckpt["model"])
        ema.shadow.load_state_dict(ckpt["ema"])
        optimizer.load_state_dict(ckpt["optimizer"])
        scheduler.load_state_dict(ckpt["scheduler"])
        start = ckpt["epoch"] + 1
        print(f"resuming at epoch {start}")

    for epoch in range(start, start + epochs_this_run):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
            ema.update(model)
        print(f"epoch {epoch}  acc {evaluate(model, val_loader, device):.3f}  ema acc {evaluate(ema.shadow, val_loader, device):.3f}")
        torch.save(
            {"model": model.state_dict(), "ema": ema.shadow.state_dict(), "optimizer": optimizer.state_dict(),
             "scheduler": scheduler.state_dict(), "epoch": epoch},
            cfg.ckpt_path,
        )


if __name__ == "__main__":
    cfg = TrainConfig()
    train(cfg, 2, resume=False)
    train(cfg, 2, resume=True)
