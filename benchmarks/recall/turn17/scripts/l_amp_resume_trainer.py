"""Mixed-precision image classifier with auto-resume from <ckpt_dir>/last.pt.

Run it twice: the second run picks up model, optimizer, GradScaler and epoch
from the checkpoint the first one left behind.
"""
import argparse
import os
from dataclasses import dataclass, field
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    epochs: int = 2
    lr: float = 3e-3
    weight_decay: float = 0.05
    batch_size: int = 64
    amp: bool = True
    ckpt_dir: str = "checkpoints_amp"
    resume: Optional[str] = None
    image_size: int = 16
    classes: list = field(default_factory=lambda: ["cat", "dog", "bird", "frog"])


class SmallConvNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.GroupNorm(8, 32), nn.SiLU(),
            nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.GroupNorm(8, 64), nn.SiLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


class Trainer:
    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.use_amp = cfg.amp and self.device.type == "cuda"

        self.model = SmallConvNet(len(cfg.classes))
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr,
                                           weight_decay=cfg.weight_decay)
        self.scaler = torch.amp.GradScaler("cuda", enabled=self.use_amp)
        self.start_epoch = 0

        resume = cfg.resume or self._auto_resume_path()
        if resume:
            self.load_checkpoint(resume)
        self.model.to(self.device)

        self.train_loader = self._make_loader(seed=0, n=640, shuffle=True)
        self.val_loader = self._make_loader(seed=1, n=256, shuffle=False)

    def _auto_resume_path(self):
        path = os.path.join(self.cfg.ckpt_dir, "last.pt")
        return path if os.path.exists(path) else None

    def _make_loader(self, seed, n, shuffle):
        g = torch.Generator().manual_seed(seed)
        y = torch.randint(0, len(self.cfg.classes), (n,), generator=g)
        x = torch.randn(n, 3, self.cfg.image_size, self.cfg.image_size, generator=g)
        x[:, 1] += y.view(-1, 1, 1).float() * 0.4
        return DataLoader(TensorDataset(x, y), batch_size=self.cfg.batch_size, shuffle=shuffle)

    def load_checkpoint(self, path):
        print(f"resuming from {path}")
        ckpt = torch.load(path, map_location="cpu")
        self.model.load_state_dict(ckpt["model"])
        self.optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        self.scaler.load_state_dict(ckpt["scaler"])
        self.start_epoch = ckpt["epoch"] + 1

    def save_checkpoint(self, epoch):
        os.makedirs(self.cfg.ckpt_dir, exist_ok=True)
        torch.save({
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "scaler": self.scaler.state_dict(),
            "epoch": epoch,
        }, os.path.join(self.cfg.ckpt_dir, "last.pt"))

    def train_one_epoch(self):
        self.model.train()
        total = 0.0
        for x, y in self.train_loader:
            x = x.to(self.device, non_blocking=True)
            y = y.to(self.device, non_blocking=True)
            with torch.autocast(device_type=self.device.type, dtype=torch.float16, enabled=self.use_amp):
                loss = F.cross_entropy(self.model(x), y, label_smoothing=0.1)
            self.optimizer.zero_grad(set_to_none=True)
            self.scaler.scale(loss).backward()
            self.scaler.unscale_(self.optimizer)
            nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.scaler.step(self.optimizer)
            self.scaler.update()
            total += loss.item()
        return total / len(self.train_loader)

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        correct = 0
        for x, y in self.val_loader:
            x, y = x.to(self.device), y.to(self.device)
            with torch.autocast(device_type=self.device.type, dtype=torch.float16, enabled=self.use_amp):
                correct += (self.model(x).argmax(1) == y).sum().item()
        return correct / len(self.val_loader.dataset)

    def fit(self):
        for epoch in range(self.start_epoch, self.start_epoch + self.cfg.epochs):
            loss = self.train_one_epoch()
            acc = self.validate()
            print(f"epoch {epoch}: train loss {loss:.4f} val acc {acc:.3f} scale {self.scaler.get_scale():.0f}")
            self.save_checkpoint(epoch)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--resume", default=None)
    p.add_argument("--no-amp", action="store_true")
    p.add_argument("--ckpt-dir", default="checkpoints_amp")
    a = p.parse_args()
    return TrainConfig(epochs=a.epochs, resume=a.resume, amp=not a.no_amp, ckpt_dir=a.ckpt_dir)


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(parse_args()).fit()
