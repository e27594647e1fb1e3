"""DDIM sampling from a trained eps-model, writes a PNG grid.

    python o_ddim_sampler.py --ckpt unet_ema.pt --steps 25 --n 16 --out samples.png
"""
import argparse
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class EpsModel(nn.Module):
    def __init__(self, ch=32, tdim=64):
        super().__init__()
        self.tdim = tdim
        self.temb = nn.Sequential(nn.Linear(tdim, ch * 2), nn.SiLU(), nn.Linear(ch * 2, ch))
        self.c1 = nn.Conv2d(1, ch, 3, padding=1)
        self.c2 = nn.Conv2d(ch, ch, 3, padding=1)
        self.c3 = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        emb = self.temb(timestep_embedding(t, self.tdim))
        h = F.silu(self.c1(x)) + emb[..., None, None]
        h = F.silu(self.c2(h))
        return self.c3(h)


def linear_alphas_cumprod(T=1000, beta_start=1e-4, beta_end=0.02):
    betas = torch.linspace(beta_start, beta_end, T, dtype=torch.float64)
    return torch.cumprod(1 - betas, 0).float()


class DDIMSampler:
    def __init__(self, model, alphas_cumprod, num_steps=50, eta=0.0):
        self.model = model
        self.alphas_cumprod = alphas_cumprod  # stays on cpu, only indexed with ints
        T = alphas_cumprod.shape[0]
        self.timesteps = list(range(0, T, T // num_steps))
        self.eta = eta

    @torch.no_grad()
    def sample(self, shape, device):
        n = shape[0]
        x = torch.randn(shape, device=device)
        seq = self.timesteps
        seq_prev = [-1] + seq[:-1]
        for i, j in zip(reversed(seq), reversed(seq_prev)):
            t = torch.full((n,), i, dtype=torch.long)  # expect: DEV006
            eps = self.model(x, t)
            a_t = self.alphas_cumprod[i]
            a_prev = self.alphas_cumprod[j] if j >= 0 else torch.tensor(1.0)
            x0_pred = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
            x0_pred = x0_pred.clamp(-1, 1)
            sigma = self.eta * ((1 - a_prev) / (1 - a_t) * (1 - a_t / a_prev)).sqrt()
            dir_xt = (1 - a_prev - sigma ** 2).sqrt() * eps
            x = a_prev.sqrt() * x0_pred + dir_xt
            if self.eta > 0:
                x = x + sigma * torch.randn_like(x)
        return x


def save_grid(samples, path, nrow=4):
    imgs = ((samples.clamp(-1, 1) + 1) / 2).squeeze(1)
    imgs = imgs.numpy()  # expect: DEV011
    n, h, w = imgs.shape
    ncol = math.ceil(n / nrow)
    grid = np.ones((ncol * (h + 2), nrow * (w + 2)), dtype=np.float32)
    for k in range(n):
        r, c = divmod(k, nrow)
        grid[r * (h + 2):r * (h + 2) + h, c * (w + 2):c * (w + 2) + w] = imgs[k]
    plt.imsave(path, grid, cmap="gray")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="unet_ema.pt")
    ap.add_argument("--steps", type=int, default=25)
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--size", type=int, default=16)
    ap.add_argument("--eta", type=float, default=0.0)
    ap.add_argument("--out", default="samples.png")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = EpsModel()
    if os.path.exists(args.ckpt):
        model.load_state_dict(torch.load(args.ckpt, map_location=device))
    else:
        print(f"{args.ckpt} not found, sampling from an untrained model")
    model.to(device).eval()

    sampler = DDIMSampler(model, linear_alphas_cumprod(), num_steps=args.steps, eta=args.eta)
    samples = sampler.sample((args.n, 1, args.size, args.size), device)
    save_grid(samples, args.out)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
