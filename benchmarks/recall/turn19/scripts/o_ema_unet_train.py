#!/usr/bin/env python
# Denoising diffusion on 1-D signals (sine mixtures) with an EMA copy of the denoiser
# that is used for evaluation, as in most DDPM repos.
import argparse
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class EMA:
    def __init__(self, model, decay=0.999, warmup=10):
        self.decay = decay
        self.warmup = warmup
        self.num_updates = 0
        self.shadow = copy.deepcopy(model).eval()  # expect: DEV016
        for p in self.shadow.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        self.num_updates += 1
        decay = min(self.decay, (1 + self.num_updates) / (self.warmup + self.num_updates))
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.lerp_(p.detach(), 1.0 - decay)
        for s, b in zip(self.shadow.buffers(), model.buffers()):
            s.copy_(b)

    def state_dict(self):
        return {"shadow": self.shadow.state_dict(), "num_updates": self.num_updates}


class ResBlock1d(nn.Module):
    def __init__(self, ch, tdim):
        super().__init__()
        self.norm1 = nn.GroupNorm(8, ch)
        self.conv1 = nn.Conv1d(ch, ch, 5, padding=2)
        self.temb = nn.Linear(tdim, ch)
        self.norm2 = nn.GroupNorm(8, ch)
        self.conv2 = nn.Conv1d(ch, ch, 5, padding=2)

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.temb(temb)[:, :, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return x + h


class Denoiser1d(nn.Module):
    def __init__(self, ch=32, tdim=64, n_blocks=3):
        super().__init__()
        self.tdim = tdim
        self.inp = nn.Conv1d(1, ch, 3, padding=1)
        self.blocks = nn.ModuleList([ResBlock1d(ch, tdim) for _ in range(n_blocks)])
        self.out = nn.Conv1d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        half = self.tdim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=x.device) / half)
        temb = t[:, None].float() * freqs[None]
        temb = torch.cat([temb.sin(), temb.cos()], dim=1)
        h = self.inp(x)
        for blk in self.blocks:
            h = blk(h, temb)
        return self.out(h)


def cosine_alpha_bar(T, s=0.008, device=None):
    steps = torch.arange(T + 1, dtype=torch.float64, device=device) / T
    f = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
    return (f[1:] / f[0]).clamp(1e-5, 1.0).float()


def batch_of_signals(n, length=64):
    t = torch.linspace(0, 1, length)
    f1 = torch.randint(1, 5, (n, 1)).float()
    f2 = torch.randint(5, 9, (n, 1)).float()
    x = 0.6 * torch.sin(2 * math.pi * f1 * t) + 0.3 * torch.sin(2 * math.pi * f2 * t)
    return x.unsqueeze(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--T", type=int, default=100)
    ap.add_argument("--ema-decay", type=float, default=0.995)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    model = Denoiser1d()
    ema = EMA(model, decay=args.ema_decay)
    model.to(device)

    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    alpha_bar = cosine_alpha_bar(args.T, device=device)

    for step in range(args.steps):
        x0 = batch_of_signals(32).to(device)
        t = torch.randint(0, args.T, (x0.shape[0],), device=device)
        noise = torch.randn_like(x0)
        ab = alpha_bar[t][:, None, None]
        xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        loss = F.mse_loss(model(xt, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
        if step % 20 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    with torch.no_grad():
        x0 = batch_of_signals(8).to(device)
        t = torch.full((8,), args.T // 2, device=device, dtype=torch.long)
        noise = torch.randn_like(x0)
        ab = alpha_bar[t][:, None, None]
        xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        val = F.mse_loss(ema.shadow(xt, t), noise)
    print(f"ema val loss {val.item():.4f}")
    torch.save({"model": model.state_dict(), "ema": ema.state_dict()}, "denoiser1d.pt")


if __name__ == "__main__":
    main()
