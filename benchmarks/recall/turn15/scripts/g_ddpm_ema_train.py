"""Minimal DDPM on toy 2-channel 16x16 "images" with an EMA copy for sampling.

python g_ddpm_ema_train.py --steps 20
"""
import argparse
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def linear_beta_schedule(timesteps, beta_start=1e-4, beta_end=0.02):
    return torch.linspace(beta_start, beta_end, timesteps)


def extract(a, t, x_shape):
    b = t.shape[0]
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)
        args = t.float()[:, None] * freqs[None]
        return torch.cat([args.sin(), args.cos()], dim=-1)


class TinyUNet(nn.Module):
    def __init__(self, ch=2, hidden=32, tdim=32):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(tdim), nn.Linear(tdim, hidden), nn.SiLU())
        self.inp = nn.Conv2d(ch, hidden, 3, padding=1)
        self.mid = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x, t):
        h = F.silu(self.inp(x))
        h = h + self.time_mlp(t)[:, :, None, None]
        h = F.silu(self.mid(h))
        return self.out(h)


class GaussianDiffusion(nn.Module):
    def __init__(self, denoiser, timesteps=100):
        super().__init__()
        self.denoiser = denoiser
        self.num_timesteps = timesteps
        betas = linear_beta_schedule(timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.betas = betas
        self.sqrt_alphas_cumprod = alphas_cumprod.sqrt()  # expect: DEV010
        self.sqrt_one_minus_alphas_cumprod = (1.0 - alphas_cumprod).sqrt()  # expect: DEV010

    def q_sample(self, x0, t, noise):
        return (extract(self.sqrt_alphas_cumprod, t, x0.shape) * x0
                + extract(self.sqrt_one_minus_alphas_cumprod, t, x0.shape) * noise)

    def forward(self, x0):
        t = torch.randint(0, self.num_timesteps, (x0.shape[0],), device=x0.device)
        noise = torch.randn_like(x0)
        x_t = self.q_sample(x0, t, noise)
        return F.mse_loss(self.denoiser(x_t, t), noise)

    @torch.no_grad()
    def sample(self, shape, device):
        x = torch.randn(shape, device=device)
        for i in reversed(range(self.num_timesteps)):
            t = torch.full((shape[0],), i, device=device, dtype=torch.long)
            beta = self.betas[i]
            eps = self.denoiser(x, t)
            coef = beta / self.sqrt_one_minus_alphas_cumprod[i]
            x = (x - coef * eps) / (1.0 - beta).sqrt()
            if i > 0:
                x = x + beta.sqrt() * torch.randn_like(x)
        return x


@torch.no_grad()
def ema_update(ema_model, model, decay):
    for ema_p, p in zip(ema_model.parameters(), model.parameters()):
        ema_p.mul_(decay).add_(p.detach(), alpha=1 - decay)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--ema-decay", type=float, default=0.995)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    data = torch.randn(64, 2, 16, 16)
    loader = DataLoader(TensorDataset(data), batch_size=16, shuffle=True)

    diffusion = GaussianDiffusion(TinyUNet(), timesteps=50)
    ema = copy.deepcopy(diffusion)  # expect: DEV016
    ema.eval().requires_grad_(False)
    diffusion.to(device)
    opt = torch.optim.Adam(diffusion.parameters(), lr=2e-4)

    step = 0
    while step < args.steps:
        for (x0,) in loader:
            x0 = x0.to(device)
            loss = diffusion(x0)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, diffusion, args.ema_decay)
            step += 1
            if step % 10 == 0:
                print(f"step {step} loss {loss.item():.4f}")
            if step >= args.steps:
                break

    samples = ema.sample((4, 2, 16, 16), device)
    print("sample stats", samples.mean().item(), samples.std().item())


if __name__ == "__main__":
    main()
