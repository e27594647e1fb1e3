# DDIM sampler for a small epsilon-prediction model; writes a PNG-ish grid as .npy
import argparse
import math
import os

import numpy as np
import torch
import torch.nn as nn


class TimeEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.proj = nn.Sequential(nn.Linear(dim, dim * 2), nn.SiLU(), nn.Linear(dim * 2, dim))

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=t.device, dtype=torch.float32) / half)
        emb = t[:, None].float() * freqs[None, :]
        return self.proj(torch.cat([emb.sin(), emb.cos()], dim=1))


class EpsModel(nn.Module):
    def __init__(self, channels=3, width=32):
        super().__init__()
        self.temb = TimeEmbedding(width)
        self.conv_in = nn.Conv2d(channels, width, 3, padding=1)
        self.block = nn.Sequential(nn.GroupNorm(8, width), nn.SiLU(), nn.Conv2d(width, width, 3, padding=1))
        self.conv_out = nn.Conv2d(width, channels, 3, padding=1)

    def forward(self, x, t):
        h = self.conv_in(x) + self.temb(t)[:, :, None, None]
        h = h + self.block(h)
        return self.conv_out(h)


def make_alphas_cumprod(T=1000):
    # cosine schedule (Nichol & Dhariwal)
    steps = np.arange(T + 1, dtype=np.float64) / T
    f = np.cos((steps + 0.008) / 1.008 * math.pi / 2) ** 2
    ac = f[1:] / f[0]
    return torch.tensor(np.clip(ac, 1e-5, 1.0), dtype=torch.float32)


@torch.no_grad()
def ddim_sample(model, shape, alphas_cumprod, num_steps, eta, device):
    T = alphas_cumprod.shape[0]
    seq = list(range(0, T, T // num_steps))
    seq_prev = [-1] + seq[:-1]
    x = torch.randn(shape, device=device)
    for i, j in zip(reversed(seq), reversed(seq_prev)):
        t = torch.full((shape[0],), i, dtype=torch.long)  # expect: DEV006
        a_t = alphas_cumprod[i]
        a_prev = alphas_cumprod[j] if j >= 0 else torch.tensor(1.0)
        eps = model(x, t)
        x0_pred = (x - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        sigma = eta * ((1 - a_prev) / (1 - a_t) * (1 - a_t / a_prev)).sqrt()
        dir_xt = (1 - a_prev - sigma ** 2).sqrt() * eps
        x = a_prev.sqrt() * x0_pred + dir_xt + sigma * torch.randn_like(x)
    return x


def to_grid(samples, nrow=4):
    imgs = ((samples.clamp(-1, 1) + 1) * 127.5).to(torch.uint8)
    imgs = imgs.permute(0, 2, 3, 1).numpy()  # expect: DEV011
    rows = [np.concatenate(list(imgs[r * nrow:(r + 1) * nrow]), axis=1) for r in range(len(imgs) // nrow)]
    return np.concatenate(rows, axis=0)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ckpt", default="")
    p.add_argument("--n", type=int, default=8)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--eta", type=float, default=0.0)
    p.add_argument("--out", default="ddim_grid.npy")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = EpsModel().to(device).eval()
    if args.ckpt and os.path.exists(args.ckpt):
        model.load_state_dict(torch.load(args.ckpt, map_location=device))

    alphas_cumprod = make_alphas_cumprod(1000)
    samples = ddim_sample(model, (args.n, 3, 16, 16), alphas_cumprod, args.steps, args.eta, device)
    grid = to_grid(samples)
    np.save(args.out, grid)
    print("saved", args.out, grid.shape)


if __name__ == "__main__":
    main()
