"""Minimal DDPM on synthetic 16x16 blobs.

    python o_ddpm_wrapper_schedule.py --epochs 2 --timesteps 200
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def sinusoidal_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=t.device) / half)
    args = t.float()[:, None] * freqs[None, :]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class SmallUNet(nn.Module):
    def __init__(self, ch=32, tdim=64):
        super().__init__()
        self.tdim = tdim
        self.time_mlp = nn.Sequential(nn.Linear(tdim, ch), nn.SiLU(), nn.Linear(ch, ch))
        self.inc = nn.Conv2d(1, ch, 3, padding=1)
        self.down = nn.Conv2d(ch, ch, 4, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(ch, ch, 4, stride=2, padding=1)
        self.out = nn.Conv2d(2 * ch, 1, 3, padding=1)

    def forward(self, x, t):
        temb = self.time_mlp(sinusoidal_embedding(t, self.tdim))
        h0 = F.silu(self.inc(x)) + temb[:, :, None, None]
        h1 = F.silu(self.down(h0))
        h2 = F.silu(self.up(h1))
        return self.out(torch.cat([h0, h2], dim=1))


class GaussianDiffusion(nn.Module):
    """Wraps the eps-prediction net; forward() returns the simple DDPM loss."""

    def __init__(self, net, timesteps=1000, beta_start=1e-4, beta_end=0.02):
        super().__init__()
        self.net = net
        self.num_timesteps = timesteps
        betas = torch.linspace(beta_start, beta_end, timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)  # expect: DEV010

    def q_sample(self, x0, t, noise):
        a_bar = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        return a_bar.sqrt() * x0 + (1.0 - a_bar).sqrt() * noise

    def forward(self, x0):
        b = x0.shape[0]
        t = torch.randint(0, self.num_timesteps, (b,), device=x0.device)
        noise = torch.randn_like(x0)
        x_t = self.q_sample(x0, t, noise)
        return F.mse_loss(self.net(x_t, t), noise)


def make_blobs(n, size=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    centers = torch.randint(4, size - 4, (n, 2), generator=g)
    d2 = (yy[None] - centers[:, 0, None, None]) ** 2 + (xx[None] - centers[:, 1, None, None]) ** 2
    imgs = torch.exp(-d2.float() / 8.0) * 2 - 1
    return imgs.unsqueeze(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--timesteps", type=int, default=200)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=2e-4)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()

    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    data = TensorDataset(make_blobs(256))
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True, drop_last=True)

    diffusion = GaussianDiffusion(SmallUNet(), timesteps=args.timesteps).to(device)
    opt = torch.optim.Adam(diffusion.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        total = 0.0
        for (x0,) in loader:
            x0 = x0.to(device)
            loss = diffusion(x0)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.4f}")

    torch.save(diffusion.net.state_dict(), "ddpm_unet.pt")


if __name__ == "__main__":
    main()
