"""Convolutional autoencoder for sensor-window anomaly detection, with AMP and resumable
checkpoints (we get preempted on the shared cluster, and sometimes debug on laptops).

    python o_resume_amp.py --epochs 2 --ckpt ae_last.pt
    python o_resume_amp.py --epochs 4 --ckpt ae_last.pt --resume
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ConvAE(nn.Module):
    def __init__(self, channels=4, latent=16):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv1d(channels, 32, 5, stride=2, padding=2), nn.GELU(),
            nn.Conv1d(32, latent, 5, stride=2, padding=2), nn.GELU(),
        )
        self.dec = nn.Sequential(
            nn.ConvTranspose1d(latent, 32, 4, stride=2, padding=1), nn.GELU(),
            nn.ConvTranspose1d(32, channels, 4, stride=2, padding=1),
        )

    def forward(self, x):
        return self.dec(self.enc(x))


class Trainer:
    def __init__(self, args):
        self.args = args
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = ConvAE()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=args.lr)
        self.scaler = torch.amp.GradScaler("cuda", enabled=self.device.type == "cuda")
        self.start_epoch = 0
        if args.resume and os.path.exists(args.ckpt):
            self.load_checkpoint(args.ckpt)
        self.model.to(self.device)

    def load_checkpoint(self, path):
        ckpt = torch.load(path)  # expect: DEV008
        self.model.load_state_dict(ckpt["model"])
        self.optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        self.scaler.load_state_dict(ckpt["scaler"])
        self.start_epoch = ckpt["epoch"] + 1
        print(f"resumed from {path} at epoch {self.start_epoch}")

    def save_checkpoint(self, path, epoch):
        torch.save({
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "scaler": self.scaler.state_dict(),
            "epoch": epoch,
        }, path)

    def fit(self, loader):
        for epoch in range(self.start_epoch, self.args.epochs):
            self.model.train()
            total = 0.0
            for (x,) in loader:
                x = x.to(self.device, non_blocking=True)
                with torch.autocast(device_type=self.device.type, enabled=self.device.type == "cuda"):
                    loss = F.mse_loss(self.model(x), x)
                self.optimizer.zero_grad(set_to_none=True)
                self.scaler.scale(loss).backward()
                self.scaler.step(self.optimizer)
                self.scaler.update()
                total += loss.item() * x.shape[0]
            print(f"epoch {epoch}: recon mse {total / len(loader.dataset):.5f}")
            self.save_checkpoint(self.args.ckpt, epoch)


def sensor_windows(n=128, channels=4, length=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 4 * torch.pi, length)
    phase = torch.rand(n, channels, 1, generator=g) * 6.28
    return torch.sin(t + phase) + 0.05 * torch.randn(n, channels, length, generator=g)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--ckpt", default="ae_last.pt")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()

    loader = DataLoader(TensorDataset(sensor_windows()), batch_size=32, shuffle=True)
    Trainer(args).fit(loader)


if __name__ == "__main__":
    main()
