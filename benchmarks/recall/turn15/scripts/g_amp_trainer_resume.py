"""Mixed-precision trainer with gradient accumulation, cosine LR and resumable state."""
import argparse
import os
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    epochs: int = 2
    batch_size: int = 8
    accum_steps: int = 2
    lr: float = 1e-3
    amp: bool = True
    ckpt: str = "last.pt"


class AudioClassifier(nn.Module):
    def __init__(self, n_mels=40, n_classes=6):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(n_mels, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(),
                                 nn.Conv1d(64, 64, 5, padding=2), nn.BatchNorm1d(64), nn.ReLU(),
                                 nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(64, n_classes))

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self, cfg: TrainConfig, model: nn.Module, loader: DataLoader):
        self.cfg = cfg
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.use_amp = cfg.amp and self.device.type == "cuda"
        self.model = model.to(self.device)
        self.loader = loader
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr)
        total = cfg.epochs * len(loader) // cfg.accum_steps + 1
        self.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(self.optimizer, T_max=total)
        self.scaler = torch.amp.GradScaler(self.device.type, enabled=self.use_amp)
        self.start_epoch = 0

    def state_dict(self, epoch):
        return {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                "scheduler": self.scheduler.state_dict(), "scaler": self.scaler.state_dict(), "epoch": epoch}

    def maybe_resume(self):
        if not os.path.isfile(self.cfg.ckpt):
            return
        state = torch.load(self.cfg.ckpt, map_location=self.device)
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.scheduler.load_state_dict(state["scheduler"])
        self.scaler.load_state_dict(state["scaler"])
        self.start_epoch = state["epoch"] + 1
        print(f"resumed at epoch {self.start_epoch}")

    def train_epoch(self):
        self.model.train()
        self.optimizer.zero_grad(set_to_none=True)
        for i, (x, y) in enumerate(self.loader):
            x = x.to(self.device, non_blocking=True)
            y = y.to(self.device, non_blocking=True)
            with torch.autocast(self.device.type, dtype=torch.float16, enabled=self.use_amp):
                loss = self.criterion(self.model(x), y) / self.cfg.accum_steps
            self.scaler.scale(loss).backward()
            if (i + 1) % self.cfg.accum_steps == 0:
                self.scaler.step(self.optimizer)
                self.scaler.update()
                self.optimizer.zero_grad(set_to_none=True)
                self.scheduler.step()
        return loss.item() * self.cfg.accum_steps

    def fit(self):
        self.maybe_resume()
        for epoch in range(self.start_epoch, self.cfg.epochs):
            loss = self.train_epoch()
            torch.save(self.state_dict(epoch), self.cfg.ckpt)
            print(f"epoch {epoch} loss {loss:.4f} lr {self.scheduler.get_last_lr()[0]:.2e}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--ckpt", default="last.pt")
    a = ap.parse_args()
    ds = TensorDataset(torch.randn(64, 40, 80), torch.randint(0, 6, (64,)))
    Trainer(TrainConfig(epochs=a.epochs, ckpt=a.ckpt), AudioClassifier(), DataLoader(ds, batch_size=8, shuffle=True)).fit()
