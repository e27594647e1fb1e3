"""DDPM on 2-D toy data (two moons style) with EMA weights and resumable checkpoints.

    python q_ddpm_resume_ok.py --steps 50 --ckpt ddpm_toy_ok.pt           # train, save
    python q_ddpm_resume_ok.py --steps 50 --ckpt ddpm_toy_ok.pt --resume  # continue
"""
import argparse
import copy
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_moons(n, noise=0.05):
    t = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], 1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], 1)
    x = torch.cat([upper, lower])[torch.randperm(2 * n)[:n]]
    return x + noise * torch.randn_like(x)


class Denoiser(nn.Module):
    def __init__(self, T=100, hidden=64):
        super().__init__()
        self.T = T
        betas = torch.linspace(1e-4, 0.02, T)
        self.register_buffer("alphas_cumprod", torch.cumprod(1.0 - betas, dim=0), persistent=False)
        self.t_embed = nn.Embedding(T, hidden)
        self.net = nn.Sequential(nn.Linear(2 + hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x0):
        t = torch.randint(0, self.T, (x0.size(0),), device=x0.device)
        noise = torch.randn_like(x0)
        a = self.alphas_cumprod[t].unsqueeze(1)
        xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
        pred = self.net(torch.cat([xt, self.t_embed(t)], dim=1))
        return F.mse_loss(pred, noise)


@torch.no_grad()
def ema_update(ema, model, decay=0.995):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--ckpt", default="ddpm_toy_ok.pt")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--lr", type=float, default=2e-3)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = Denoiser().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    start = 0
    if args.resume and os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt, map_location=device)
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start = ckpt["step"]
    ema = copy.deepcopy(model).eval()

    data = make_moons(512)
    for step in range(start, start + args.steps):
        batch = data[torch.randint(0, len(data), (64,))].to(device)
        loss = model(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema_update(ema, model)
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    torch.save({"model": model.state_dict(), "ema": ema.state_dict(),
                "optimizer": optimizer.state_dict(), "step": start + args.steps}, args.ckpt)


if __name__ == "__main__":
    main()
