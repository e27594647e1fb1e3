"""DDPM training (schedule as buffers, embedding frequencies on t's device) on tiny synthetic 'images': epsilon prediction, linear beta schedule, sinusoidal time embedding."""
import argparse
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    timesteps: int = 200
    channels: int = 1
    size: int = 16
    hidden: int = 32
    batch_size: int = 32
    epochs: int = 2
    lr: float = 2e-4


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    args = t.float()[:, None] * freqs[None, :]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.hidden = cfg.hidden
        self.time_mlp = nn.Sequential(nn.Linear(cfg.hidden, cfg.hidden), nn.SiLU())
        self.inp = nn.Conv2d(cfg.channels, cfg.hidden, 3, padding=1)
        self.mid = nn.Conv2d(cfg.hidden, cfg.hidden, 3, padding=1)
        self.out = nn.Conv2d(cfg.hidden, cfg.channels, 3, padding=1)

    def forward(self, x, t):
        temb = self.time_mlp(timestep_embedding(t, self.hidden))
        h = F.silu(self.inp(x)) + temb[:, :, None, None]
        h = F.silu(self.mid(h))
        return self.out(h)


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps):
        super().__init__()
        self.model = model
        self.timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.register_buffer("alphas_bar", torch.cumprod(1.0 - betas, dim=0))

    def training_loss(self, x0):
        t = torch.randint(0, self.timesteps, (x0.size(0),), device=x0.device)
        noise = torch.randn_like(x0)
        ab = self.alphas_bar[t].view(-1, 1, 1, 1)
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        return F.mse_loss(self.model(x_t, t), noise)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=None)
    args = ap.parse_args()
    cfg = Config()
    if args.epochs:
        cfg.epochs = args.epochs
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    images = torch.tanh(torch.randn(256, cfg.channels, cfg.size, cfg.size))
    loader = DataLoader(TensorDataset(images), batch_size=cfg.batch_size, shuffle=True)
    diffusion = GaussianDiffusion(Denoiser(cfg), cfg.timesteps).to(device)
    opt = torch.optim.AdamW(diffusion.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        for (x0,) in loader:
            x0 = x0.to(device)
            loss = diffusion.training_loss(x0)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
