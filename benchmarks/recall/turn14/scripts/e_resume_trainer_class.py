"""Regression trainer with checkpoint/resume (AdamW + cosine schedule).

Run once to train and checkpoint, run again with --resume to continue from the
last epoch.
"""
import argparse
import os
import tempfile
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    epochs: int = 3
    lr: float = 3e-3
    batch_size: int = 32
    ckpt_path: str = os.path.join(tempfile.gettempdir(), "e_resume_trainer.pt")
    resume: bool = False
    cpu: bool = False


def build_model():
    return nn.Sequential(nn.Linear(8, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))


def make_loader(batch_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(1024, 8, generator=g)
    y = (x[:, :3].sum(1, keepdim=True) ** 2) * 0.1 + 0.05 * torch.randn(1024, 1, generator=g)
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=True)


class Trainer:
    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.model = build_model()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr, weight_decay=1e-2)
        self.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(self.optimizer, T_max=cfg.epochs * 10)
        self.loader = make_loader(cfg.batch_size)
        self.start_epoch = 0
        if cfg.resume and os.path.exists(cfg.ckpt_path):
            self.load_checkpoint(cfg.ckpt_path)
        self.device = self._select_device()
        self.model.to(self.device)

    def _select_device(self):
        if torch.cuda.is_available() and not self.cfg.cpu:
            return torch.device("cuda")
        return torch.device("cpu")

    def load_checkpoint(self, path):
        ckpt = torch.load(path, map_location="cpu")
        self.model.load_state_dict(ckpt["model"])
        self.optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        self.scheduler.load_state_dict(ckpt["scheduler"])
        self.start_epoch = ckpt["epoch"] + 1
        print(f"resumed from epoch {ckpt['epoch']}")

    def save_checkpoint(self, epoch):
        torch.save({
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "epoch": epoch,
        }, self.cfg.ckpt_path)

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for x, y in self.loader:
            x, y = x.to(self.device), y.to(self.device)
            loss = nn.functional.mse_loss(self.model(x), y)
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            self.optimizer.step()
            total += loss.item() * x.size(0)
        self.scheduler.step()
        return total / len(self.loader.dataset)

    def fit(self):
        for epoch in range(self.start_epoch, self.cfg.epochs):
            loss = self.train_epoch()
            print(f"epoch {epoch} mse {loss:.4f} lr {self.scheduler.get_last_lr()[0]:.2e}")
            self.save_checkpoint(epoch)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--cpu", action="store_true")
    args = p.parse_args()
    cfg = TrainConfig(epochs=args.epochs, resume=args.resume, cpu=args.cpu)
    Trainer(cfg).fit()


if __name__ == "__main__":
    main()
