"""DDPM on toy 2-D point clouds (two moons), schedule kept in buffers, EMA for sampling.

python k_ddpm_buffers_ok.py --steps 300
"""
import argparse
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def two_moons(n, noise=0.05):
    n1 = n // 2
    t1 = torch.rand(n1) * math.pi
    t2 = torch.rand(n - n1) * math.pi
    a = torch.stack([torch.cos(t1), torch.sin(t1)], 1)
    b = torch.stack([1 - torch.cos(t2), 0.5 - torch.sin(t2)], 1)
    return torch.cat([a, b]) + noise * torch.randn(n, 2)


def extract(buf, t, x_shape):
    out = buf.gather(0, t)
    return out.reshape(t.shape[0], *([1] * (len(x_shape) - 1)))


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class MLPDenoiser(nn.Module):
    def __init__(self, hidden=128, tdim=32):
        super().__init__()
        self.tdim = tdim
        self.net = nn.Sequential(
            nn.Linear(2 + tdim, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, 2),
        )

    def forward(self, x, t):
        return self.net(torch.cat([x, timestep_embedding(t, self.tdim)], dim=-1))


class Diffusion(nn.Module):
    def __init__(self, model, T=200):
        super().__init__()
        self.model = model
        self.T = T
        betas = torch.linspace(1e-4, 0.02, T)
        alphas = 1.0 - betas
        ab = torch.cumprod(alphas, 0)
        ab_prev = F.pad(ab[:-1], (1, 0), value=1.0)
        self.register_buffer("betas", betas)
        self.register_buffer("sqrt_ab", ab.sqrt())
        self.register_buffer("sqrt_1mab", (1 - ab).sqrt())
        self.register_buffer("recip_sqrt_alphas", alphas.rsqrt())
        self.register_buffer("post_var", betas * (1 - ab_prev) / (1 - ab))
        # p2-style reweighting, a single scalar
        self.register_buffer("loss_scale", torch.tensor(1.0))

    def loss(self, x0):
        t = torch.randint(0, self.T, (x0.shape[0],), device=x0.device)
        noise = torch.randn_like(x0)
        xt = extract(self.sqrt_ab, t, x0.shape) * x0 + extract(self.sqrt_1mab, t, x0.shape) * noise
        return self.loss_scale * F.mse_loss(self.model(xt, t), noise)

    @torch.no_grad()
    def sample(self, n, device):
        x = torch.randn(n, 2, device=device)
        for i in reversed(range(self.T)):
            t = torch.full((n,), i, device=device, dtype=torch.long)
            eps = self.model(x, t)
            coef = extract(self.betas, t, x.shape) / extract(self.sqrt_1mab, t, x.shape)
            mean = extract(self.recip_sqrt_alphas, t, x.shape) * (x - coef * eps)
            if i > 0:
                x = mean + extract(self.post_var, t, x.shape).sqrt() * torch.randn_like(x)
            else:
                x = mean
        return x


@torch.no_grad()
def ema_update(ema, online, decay):
    for e, p in zip(ema.parameters(), online.parameters()):
        e.lerp_(p, 1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--ema", type=float, default=0.99)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    diffusion = Diffusion(MLPDenoiser()).to(device)
    ema = copy.deepcopy(diffusion).eval().requires_grad_(False)
    opt = torch.optim.Adam(diffusion.model.parameters(), lr=1e-3)
    warmup = torch.linspace(0.1, 1.0, 50)

    for step in range(args.steps):
        x0 = two_moons(args.batch).to(device)
        loss = diffusion.loss(x0)
        if step < len(warmup):
            loss = loss * warmup[step]
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_update(ema, diffusion, args.ema)
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    pts = ema.sample(512, device).cpu()
    print("sample mean", pts.mean(0).tolist(), "std", pts.std(0).tolist())


if __name__ == "__main__":
    main()
