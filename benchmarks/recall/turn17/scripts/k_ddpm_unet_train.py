"""Minimal DDPM on 16x16 synthetic blobs.

python k_ddpm_unet_train.py --epochs 2 --timesteps 200
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_blobs(n, size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    imgs = []
    for _ in range(n):
        cx, cy = torch.randint(3, size - 3, (2,), generator=g).tolist()
        r = 1.5 + 2.5 * torch.rand(1, generator=g).item()
        d = ((xx - cx) ** 2 + (yy - cy) ** 2).float()
        imgs.append(torch.exp(-d / (2 * r * r)))
    x = torch.stack(imgs).unsqueeze(1)
    return x * 2 - 1


def linear_beta_schedule(T, start=1e-4, end=0.02):
    return torch.linspace(start, end, T)


class TimeEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.SiLU(), nn.Linear(dim * 2, dim))

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)  # expect: DEV006
        args = t[:, None].float() * freqs[None, :]
        emb = torch.cat([torch.sin(args), torch.cos(args)], dim=-1)
        return self.mlp(emb)


class Block(nn.Module):
    def __init__(self, cin, cout, tdim):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.temb = nn.Linear(tdim, cout)
        self.norm = nn.GroupNorm(4, cout)

    def forward(self, x, temb):
        h = F.silu(self.conv1(x))
        h = h + self.temb(temb)[:, :, None, None]
        return F.silu(self.norm(self.conv2(h)))


class TinyUNet(nn.Module):
    def __init__(self, ch=32, tdim=32):
        super().__init__()
        self.time = TimeEmbedding(tdim)
        self.inc = nn.Conv2d(1, ch, 3, padding=1)
        self.down = Block(ch, ch * 2, tdim)
        self.up = Block(ch * 3, ch, tdim)
        self.out = nn.Conv2d(ch, 1, 1)

    def forward(self, x, t):
        temb = self.time(t)
        h0 = self.inc(x)
        h1 = self.down(F.avg_pool2d(h0, 2), temb)
        h = F.interpolate(h1, scale_factor=2, mode="nearest")
        h = self.up(torch.cat([h, h0], dim=1), temb)
        return self.out(h)


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=1000):
        super().__init__()
        self.model = model
        self.T = timesteps
        betas = linear_beta_schedule(timesteps)
        # cumulative product of alphas, q(x_t | x_0) coefficients come from it
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)  # expect: DEV010

    def q_sample(self, x0, t, noise):
        ab = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        return ab.sqrt() * x0 + (1.0 - ab).sqrt() * noise

    def forward(self, x0):
        t = torch.randint(0, self.T, (x0.shape[0],), device=x0.device)
        noise = torch.randn_like(x0)
        xt = self.q_sample(x0, t, noise)
        return F.mse_loss(self.model(xt, t), noise)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--timesteps", type=int, default=200)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=2e-4)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")
    data = make_blobs(128)
    loader = DataLoader(TensorDataset(data), batch_size=args.batch_size, shuffle=True)

    diffusion = GaussianDiffusion(TinyUNet(), timesteps=args.timesteps).to(device)
    opt = torch.optim.Adam(diffusion.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        total = 0.0
        for (x0,) in loader:
            x0 = x0.to(device)
            loss = diffusion(x0)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * x0.size(0)
        print(f"epoch {epoch}: loss {total / len(data):.4f}")


if __name__ == "__main__":
    main()
