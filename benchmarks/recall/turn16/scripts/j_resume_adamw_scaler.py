"""Image regression trainer with AMP, cosine schedule and resumable checkpoints.

    python j_resume_adamw_scaler.py --epochs 2 --ckpt run/last.pt
    python j_resume_adamw_scaler.py --epochs 4 --ckpt run/last.pt --resume
"""
import argparse
import os
import tempfile
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    epochs: int = 2
    lr: float = 2e-3
    batch_size: int = 16
    ckpt: str = ""
    resume: bool = False
    amp: bool = True


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)


class Trainer:
    def __init__(self, cfg: Config):
        self.cfg = cfg
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = Regressor()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr, weight_decay=0.01)
        self.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(self.optimizer, T_max=cfg.epochs)
        self.use_amp = cfg.amp and self.device.type == "cuda"
        self.scaler = torch.amp.GradScaler("cuda", enabled=self.use_amp)
        self.start_epoch = 0

        if cfg.resume and os.path.exists(cfg.ckpt):
            self.load(cfg.ckpt)
        self.model.to(self.device)

    def load(self, path):
        state = torch.load(path, map_location="cpu")
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])  # expect: DEV017
        self.scheduler.load_state_dict(state["scheduler"])
        self.scaler.load_state_dict(state["scaler"])
        self.start_epoch = state["epoch"] + 1
        print(f"resumed from {path} at epoch {self.start_epoch}")

    def save(self, path, epoch):
        torch.save({
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "scaler": self.scaler.state_dict(),
            "epoch": epoch,
        }, path)

    @torch.no_grad()
    def validate(self, loader):
        self.model.eval()
        total, n = 0.0, 0
        for x, y in loader:
            pred = self.model(x)  # expect: DEV002
            total += nn.functional.mse_loss(pred, y, reduction="sum").item()  # also: DEV004
            n += y.numel()
        return total / n

    def fit(self, loader, val_loader):
        for epoch in range(self.start_epoch, self.cfg.epochs):
            self.model.train()
            running = 0.0
            for x, y in loader:
                x = x.to(self.device, non_blocking=True)
                y = y.to(self.device, non_blocking=True)
                self.optimizer.zero_grad(set_to_none=True)
                with torch.autocast(device_type=self.device.type, enabled=self.use_amp):
                    loss = nn.functional.mse_loss(self.model(x), y)
                self.scaler.scale(loss).backward()
                self.scaler.step(self.optimizer)
                self.scaler.update()
                running += loss.item()
            self.scheduler.step()
            val = self.validate(val_loader)
            print(f"epoch {epoch} loss {running / len(loader):.4f} val {val:.4f} "
                  f"lr {self.scheduler.get_last_lr()[0]:.2e}")
            if self.cfg.ckpt:
                self.save(self.cfg.ckpt, epoch)


def parse_args() -> Config:
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--ckpt", default=os.path.join(tempfile.gettempdir(), "j_resume_last.pt"))
    p.add_argument("--resume", action="store_true")
    a = p.parse_args()
    return Config(epochs=a.epochs, ckpt=a.ckpt, resume=a.resume)


if __name__ == "__main__":
    cfg = parse_args()
    x = torch.randn(96, 3, 32, 32)
    y = x.mean(dim=(1, 2, 3)) * 3.0
    loader = DataLoader(TensorDataset(x[:64], y[:64]), batch_size=cfg.batch_size, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[64:], y[64:]), batch_size=32)
    Trainer(cfg).fit(loader, val_loader)
