"""Ancestral DDPM sampling for a small image denoiser; the noise schedule stays on the CPU and the
timestep is broadcast to the batch each step."""
import argparse
import math

import torch
import torch.nn as nn
from torchvision.utils import save_image


def cosine_schedule(T, s=0.008):
    t = torch.arange(T + 1, dtype=torch.float64) / T
    f = torch.cos((t + s) / (1 + s) * math.pi / 2) ** 2
    alpha_bar = f / f[0]
    return (1 - alpha_bar[1:] / alpha_bar[:-1]).clamp(max=0.999).float()


class TimeEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        half = dim // 2
        self.register_buffer("freqs", torch.exp(-math.log(10000) * torch.arange(half) / half))
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, t):
        a = t.float()[:, None] * self.freqs[None]
        return self.mlp(torch.cat([a.sin(), a.cos()], dim=-1))


class Denoiser(nn.Module):
    def __init__(self, ch=32, tdim=64):
        super().__init__()
        self.temb = TimeEmbedding(tdim)
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.tproj = nn.Linear(tdim, ch)
        self.body = nn.Sequential(nn.SiLU(), nn.Conv2d(ch, ch, 3, padding=1), nn.SiLU(), nn.Conv2d(ch, 1, 3, padding=1))

    def forward(self, x, t):
        h = self.inp(x) + self.tproj(self.temb(t))[:, :, None, None]
        return self.body(h)


@torch.no_grad()
def sample(model, n, T, device):
    betas = cosine_schedule(T)
    alphas = 1 - betas
    alpha_bar = torch.cumprod(alphas, 0)
    x = torch.randn(n, 1, 28, 28, device=device)
    for t in reversed(range(T)):
        t_batch = torch.full((n,), t, dtype=torch.long)  # expect: DEV006
        eps = model(x, t_batch)
        coef = betas[t] / torch.sqrt(1 - alpha_bar[t])
        mean = (x - coef * eps) / torch.sqrt(alphas[t])
        x = mean + torch.sqrt(betas[t]) * torch.randn_like(x) if t > 0 else mean
    return x


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default="denoiser.pt")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--n", type=int, default=16)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Denoiser().to(device).eval()
    model.load_state_dict(torch.load(args.ckpt, map_location=device))
    imgs = sample(model, args.n, args.steps, device)
    save_image((imgs.clamp(-1, 1) + 1) / 2, "samples.png", nrow=4)
