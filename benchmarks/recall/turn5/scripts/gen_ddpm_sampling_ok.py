"""DDPM sampling with a CPU schedule used correctly: the schedule is indexed with a Python int
(a 0-dim CPU tensor meets CUDA tensors legally) and the per-sample timestep is made on the
sample's device."""
import argparse
import math

import torch
import torch.nn as nn


def linear_schedule(T):
    return torch.linspace(1e-4, 0.02, T)


class Denoiser(nn.Module):
    def __init__(self, ch=32, tdim=32):
        super().__init__()
        half = tdim // 2
        self.register_buffer("freqs", torch.exp(-math.log(10000) * torch.arange(half) / half))
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.tproj = nn.Linear(tdim, ch)
        self.out = nn.Sequential(nn.SiLU(), nn.Conv2d(ch, 1, 3, padding=1))

    def forward(self, x, t):
        a = t.float()[:, None] * self.freqs[None]
        temb = torch.cat([a.sin(), a.cos()], -1)
        return self.out(self.inp(x) + self.tproj(temb)[:, :, None, None])


@torch.no_grad()
def sample(model, n, T, device):
    betas = linear_schedule(T)
    alphas = 1 - betas
    alpha_bar = torch.cumprod(alphas, 0)
    alpha_bar_dev = alpha_bar.to(device)
    x = torch.randn(n, 1, 28, 28, device=device)
    for t in reversed(range(T)):
        t_batch = torch.full((n,), t, dtype=torch.long, device=device)
        eps = model(x, t_batch)
        coef = betas[t] / torch.sqrt(1 - alpha_bar[t])
        x = (x - coef * eps) / torch.sqrt(alphas[t])
        if t > 0:
            x = x + torch.sqrt(betas[t]) * torch.randn_like(x)
    snr = alpha_bar_dev[t_batch] / (1 - alpha_bar_dev[t_batch])
    return x, snr


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Denoiser().to(device).eval()
    imgs, snr = sample(model, 8, args.steps, device)
    print(imgs.shape, snr.mean().item())
