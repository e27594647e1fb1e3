"""A DDPM on a 2-D two-moons toy set: an MLP denoiser with a sinusoidal time
embedding, a noise schedule kept on the wrapper module, and an ancestral
sampling loop.

Written from "RuntimeError: indices should be either on cpu or on the same device
as the indexed tensor" (mattroz/diffusion-ddpm#5: alphas_hat made with
torch.linspace on the CPU, indexed with CUDA timesteps), "bug in ddpm scheduler"
(diffusers#3089) and "fix device in DDPM / DDIM timesteps" (the per-step
timestep tensor of the sampler built without a device).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TimeEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        half = dim // 2
        self.register_buffer("freqs", torch.exp(-math.log(10000.0) * torch.arange(half) / half))
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))

    def forward(self, t):
        args = t.float()[:, None] * self.freqs[None, :]
        return self.mlp(torch.cat([args.sin(), args.cos()], dim=-1))


class Denoiser(nn.Module):
    def __init__(self, dim=128):
        super().__init__()
        self.temb = TimeEmbedding(dim)
        self.inp = nn.Linear(2, dim)
        self.net = nn.Sequential(nn.SiLU(), nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, 2))

    def forward(self, x, t):
        return self.net(self.inp(x) + self.temb(t))


class DDPM(nn.Module):
    def __init__(self, net, T=200):
        super().__init__()
        self.net, self.T = net, T
        betas = torch.linspace(1e-4, 0.02, T)
        self.register_buffer("betas", betas)
        self.alphas_bar = torch.cumprod(1.0 - betas, dim=0)  # expect: DEV010

    def forward(self, x0):
        t = torch.randint(0, self.T, (x0.size(0),), device=x0.device)
        noise = torch.randn_like(x0)
        ab = self.alphas_bar[t].unsqueeze(-1)
        xt = ab.sqrt() * x0 + (1.0 - ab).sqrt() * noise
        return F.mse_loss(self.net(xt, t), noise)

    @torch.no_grad()
    def sample(self, n):
        x = torch.randn(n, 2, device=self.betas.device)
        for i in reversed(range(self.T)):
            t = torch.full((n,), i, dtype=torch.long)  # expect: DEV006
            eps = self.net(x, t)
            beta, ab = self.betas[i], self.alphas_bar[i]
            mean = (x - beta / (1.0 - ab).sqrt() * eps) / (1.0 - beta).sqrt()
            x = mean + beta.sqrt() * torch.randn_like(x) if i > 0 else mean
        return x


def two_moons(n, g):
    theta = torch.rand(n, generator=g) * math.pi
    upper = torch.stack([theta.cos(), theta.sin()], dim=1)
    lower = torch.stack([1.0 - theta.cos(), 0.5 - theta.sin()], dim=1)
    pick = torch.rand(n, generator=g) < 0.5
    pts = torch.where(pick[:, None], upper, lower)
    return pts + 0.05 * torch.randn(n, 2, generator=g)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    data = two_moons(2048, g)
    model = DDPM(Denoiser()).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(300):
        batch = data[torch.randint(0, len(data), (128,), generator=g)].to(device)
        loss = model(batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("loss", round(loss.item(), 4))
    samples = model.sample(256).cpu()
    print("sample mean", samples.mean(0).tolist(), "std", samples.std(0).tolist())


if __name__ == "__main__":
    main()
