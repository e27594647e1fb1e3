"""DDPM on synthetic 16x16 rings, schedule held in buffers, EMA weights for sampling."""
import argparse
import copy
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def extract(a, t, x_shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


class Unet(nn.Module):
    def __init__(self, ch=32, tdim=64):
        super().__init__()
        self.tdim = tdim
        self.t_mlp = nn.Sequential(nn.Linear(tdim, ch), nn.SiLU(), nn.Linear(ch, ch))
        self.c1 = nn.Conv2d(1, ch, 3, padding=1)
        self.down = nn.Conv2d(ch, ch, 4, 2, 1)
        self.up = nn.ConvTranspose2d(ch, ch, 4, 2, 1)
        self.c2 = nn.Conv2d(2 * ch, 1, 3, padding=1)

    def forward(self, x, t):
        half = self.tdim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)
        emb = t.float()[:, None] * freqs
        emb = self.t_mlp(torch.cat([emb.sin(), emb.cos()], dim=1))
        h = F.silu(self.c1(x)) + emb[:, :, None, None]
        u = F.silu(self.up(F.silu(self.down(h))))
        return self.c2(torch.cat([h, u], 1))


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=200):
        super().__init__()
        self.model = model
        self.num_timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps, dtype=torch.float64)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
        to32 = lambda v: v.to(torch.float32)
        self.register_buffer("betas", to32(betas))
        self.register_buffer("sqrt_alphas_cumprod", to32(alphas_cumprod.sqrt()))
        self.register_buffer("sqrt_one_minus_alphas_cumprod", to32((1 - alphas_cumprod).sqrt()))
        self.register_buffer("sqrt_recip_alphas", to32((1.0 / (1.0 - betas)).sqrt()))
        self.register_buffer("posterior_variance", to32(betas * (1 - alphas_cumprod_prev) / (1 - alphas_cumprod)))

    def q_sample(self, x0, t, noise):
        return (extract(self.sqrt_alphas_cumprod, t, x0.shape) * x0
                + extract(self.sqrt_one_minus_alphas_cumprod, t, x0.shape) * noise)

    def forward(self, x0):
        t = torch.randint(0, self.num_timesteps, (x0.shape[0],), device=x0.device).long()
        noise = torch.randn_like(x0)
        return F.mse_loss(self.model(self.q_sample(x0, t, noise), t), noise)

    @torch.no_grad()
    def sample(self, n, size):
        device = self.betas.device
        x = torch.randn(n, 1, size, size, device=device)
        for i in reversed(range(self.num_timesteps)):
            t = torch.full((n,), i, device=device, dtype=torch.long)
            eps = self.model(x, t)
            coef = extract(self.betas, t, x.shape) / extract(self.sqrt_one_minus_alphas_cumprod, t, x.shape)
            mean = extract(self.sqrt_recip_alphas, t, x.shape) * (x - coef * eps)
            if i > 0:
                mean = mean + extract(self.posterior_variance, t, x.shape).sqrt() * torch.randn_like(x)
            x = mean
        return x


def rings(n, size=16):
    yy, xx = np.mgrid[:size, :size]
    r = np.random.default_rng(0).uniform(3, 7, size=n)
    d = np.sqrt((yy - size / 2) ** 2 + (xx - size / 2) ** 2)
    imgs = (np.abs(d[None] - r[:, None, None]) < 1.0).astype(np.float32) * 2 - 1
    return torch.from_numpy(imgs).unsqueeze(1)


@torch.no_grad()
def ema_update(ema_model, model, decay):
    for e, p in zip(ema_model.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--timesteps", type=int, default=50)
    ap.add_argument("--ema", type=float, default=0.99)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    diffusion = GaussianDiffusion(Unet(), timesteps=args.timesteps).to(device)
    ema = copy.deepcopy(diffusion).eval().requires_grad_(False)
    opt = torch.optim.Adam(diffusion.model.parameters(), lr=2e-4)
    loader = DataLoader(TensorDataset(rings(128)), batch_size=32, shuffle=True)

    for epoch in range(args.epochs):
        for (x0,) in loader:
            loss = diffusion(x0.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema.model, diffusion.model, args.ema)
        print(f"epoch {epoch}: {loss.item():.4f}")

    samples = ema.sample(8, 16)
    arr = ((samples.clamp(-1, 1) + 1) * 127.5).to(torch.uint8).cpu().numpy()
    print("sample stats:", arr.shape, arr.mean())


if __name__ == "__main__":
    main()
