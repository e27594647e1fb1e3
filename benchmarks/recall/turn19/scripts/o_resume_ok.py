"""Speech-enhancement mask estimator (magnitude STFT masking), resumable training.

Checkpoints carry model, optimizer, scheduler, GradScaler and RNG state so a preempted
job continues where it stopped; they are also loaded on CPU-only machines for eval.
"""
import argparse
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_FFT, HOP = 256, 64


class MaskNet(nn.Module):
    def __init__(self, n_freq=N_FFT // 2 + 1, hidden=96):
        super().__init__()
        self.register_buffer("window", torch.hann_window(N_FFT))
        self.rnn = nn.GRU(n_freq, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, n_freq)

    def forward(self, noisy):
        spec = torch.stft(noisy, N_FFT, HOP, window=self.window, return_complex=True)
        mag = spec.abs().transpose(1, 2)  # B x T x F
        h, _ = self.rnn(torch.log1p(mag))
        mask = torch.sigmoid(self.fc(h)).transpose(1, 2)
        return torch.istft(spec * mask, N_FFT, HOP, window=self.window, length=noisy.shape[-1])


def make_pairs(n=64, length=4000, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(length) / 8000
    f = 200 + 600 * torch.rand(n, 1, generator=g)
    clean = 0.5 * torch.sin(2 * math.pi * f * t)
    noisy = clean + 0.3 * torch.randn(n, length, generator=g)
    return TensorDataset(noisy, clean)


def save_checkpoint(path, model, optimizer, scheduler, scaler, epoch):
    torch.save({
        "epoch": epoch,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "scaler": scaler.state_dict(),
        "rng": torch.get_rng_state(),
    }, path)


def load_checkpoint(path, model, optimizer, scheduler, scaler, device):
    ckpt = torch.load(path, map_location=device)
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    scheduler.load_state_dict(ckpt["scheduler"])
    scaler.load_state_dict(ckpt["scaler"])
    torch.set_rng_state(ckpt["rng"].cpu())
    return ckpt["epoch"] + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--ckpt", default="masknet_last.pt")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MaskNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.8)
    scaler = torch.amp.GradScaler("cuda", enabled=device.type == "cuda")

    start = 0
    if args.resume and os.path.isfile(args.ckpt):
        start = load_checkpoint(args.ckpt, model, optimizer, scheduler, scaler, device)
        print(f"resuming at epoch {start}")

    loader = DataLoader(make_pairs(), batch_size=16, shuffle=True)
    for epoch in range(start, args.epochs):
        for noisy, clean in loader:
            noisy, clean = noisy.to(device), clean.to(device)
            with torch.autocast(device_type=device.type, enabled=scaler.is_enabled()):
                est = model(noisy)
            loss = F.l1_loss(est.float(), clean)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        scheduler.step()
        print(f"epoch {epoch}: l1 {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.2e}")
        save_checkpoint(args.ckpt, model, optimizer, scheduler, scaler, epoch)


if __name__ == "__main__":
    main()
