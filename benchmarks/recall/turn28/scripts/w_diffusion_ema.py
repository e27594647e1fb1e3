"""Diffusion training on uint8 toy images with an EMA copy of the denoiser used for sampling."""
import argparse
import copy
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class StripeImages(Dataset):
    """uint8 16x16 images with random stripes, like a folder of PNGs read with PIL."""

    def __init__(self, n=128, seed=0):
        rng = np.random.default_rng(seed)
        self.imgs = np.zeros((n, 1, 16, 16), dtype=np.uint8)
        for i in range(n):
            k = rng.integers(1, 4)
            self.imgs[i, 0, :, ::k] = 255

    def __len__(self):
        return len(self.imgs)

    def __getitem__(self, i):
        return torch.from_numpy(self.imgs[i])


class Denoiser(nn.Module):
    def __init__(self, ch=32, T=200):
        super().__init__()
        self.temb = nn.Embedding(T, ch)
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.body = nn.Sequential(nn.SiLU(), nn.Conv2d(ch, ch, 3, padding=1), nn.SiLU())
        self.out = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x) + self.temb(t)[:, :, None, None]
        return self.out(self.body(h))


class Schedule(nn.Module):
    def __init__(self, T=200):
        super().__init__()
        s = 0.008
        steps = torch.arange(T + 1, dtype=torch.float64) / T
        f = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
        a_bar = (f / f[0]).clamp(1e-5, 1.0)
        betas = (1 - a_bar[1:] / a_bar[:-1]).clamp(max=0.999).float()
        self.register_buffer("betas", betas)
        self.register_buffer("a_bar", torch.cumprod(1 - betas, 0))
        self.T = T

    def q_sample(self, x0, t, noise):
        ab = self.a_bar[t][:, None, None, None]
        return ab.sqrt() * x0 + (1 - ab).sqrt() * noise


@torch.no_grad()
def ema_update(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1 - decay)


@torch.no_grad()
def sample(net, sched, n, device):
    x = torch.randn(n, 1, 16, 16, device=device)
    for i in reversed(range(sched.T)):
        t = torch.full((n,), i, device=device, dtype=torch.long)
        eps = net(x, t)
        b, ab = sched.betas[i], sched.a_bar[i]
        x = (x - b / (1 - ab).sqrt() * eps) / (1 - b).sqrt()
        if i > 0:
            x = x + b.sqrt() * torch.randn_like(x)
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--ema-decay", type=float, default=0.995)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    sched = Schedule().to(device)
    unet = Denoiser()
    ema_unet = copy.deepcopy(unet)  # expect: DEV016
    ema_unet.requires_grad_(False)
    unet.to(device)
    opt = torch.optim.Adam(unet.parameters(), lr=3e-4)
    loader = DataLoader(StripeImages(), batch_size=32, shuffle=True)

    for epoch in range(args.epochs):
        for imgs in loader:
            x0 = imgs.to(device).type(torch.FloatTensor) / 127.5 - 1.0  # expect: DEV021
            t = torch.randint(0, sched.T, (x0.size(0),), device=device)
            noise = torch.randn_like(x0)
            loss = F.mse_loss(unet(sched.q_sample(x0, t, noise), t), noise)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema_unet, unet, args.ema_decay)
        print(f"epoch {epoch} loss {loss.item():.4f}")

    imgs = sample(ema_unet, sched, 4, device)
    grid = ((imgs.clamp(-1, 1) + 1) * 127.5).round().to(torch.uint8).cpu().numpy()
    print("samples", grid.shape, grid.dtype)


if __name__ == "__main__":
    main()
