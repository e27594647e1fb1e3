"""Tiny DDPM on 2-d toy data with an EMA copy of the denoiser.

Written from diffusion threads: "RuntimeError: indices should be either on cpu
or on the same device as the indexed tensor" (mattroz/diffusion-ddpm#5 and
explainingai-code/DDPM-Pytorch#5, where the beta schedule is made with
torch.linspace in __init__ and stays on the CPU while the timesteps live on
CUDA) and "EMA Bug" (lucidrains/DALLE2-pytorch#87, "found at least two devices,
cuda:0 and cpu" in the moving-average update).
"""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def two_rings(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    angle = torch.rand(n, generator=g) * 2 * math.pi
    radius = torch.where(torch.rand(n, generator=g) < 0.5, 0.5, 1.0)
    pts = torch.stack([radius * angle.cos(), radius * angle.sin()], dim=1)
    return pts + 0.03 * torch.randn(n, 2, generator=g)


class Denoiser(nn.Module):
    def __init__(self, hidden=128, t_dim=32):
        super().__init__()
        self.t_dim = t_dim
        self.net = nn.Sequential(
            nn.Linear(2 + t_dim, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, 2),
        )

    def time_embedding(self, t):
        half = self.t_dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=t.device) / half)
        args = t.float().unsqueeze(1) * freqs.unsqueeze(0)
        return torch.cat([args.sin(), args.cos()], dim=1)

    def forward(self, x, t):
        return self.net(torch.cat([x, self.time_embedding(t)], dim=1))


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=200, beta_start=1e-4, beta_end=0.02):
        super().__init__()
        self.model = model
        self.timesteps = timesteps
        betas = torch.linspace(beta_start, beta_end, timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)  # expect: DEV010

    def forward(self, x0):
        t = torch.randint(0, self.timesteps, (x0.size(0),), device=x0.device)
        noise = torch.randn_like(x0)
        a_bar = self.alphas_cumprod[t].unsqueeze(1)
        x_t = a_bar.sqrt() * x0 + (1.0 - a_bar).sqrt() * noise
        return F.mse_loss(self.model(x_t, t), noise)


@torch.no_grad()
def ema_update(ema_model, model, decay):
    for ema_p, p in zip(ema_model.parameters(), model.parameters()):
        ema_p.mul_(decay).add_(p.detach(), alpha=1.0 - decay)


def main(steps=600, batch_size=256, ema_decay=0.995):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = two_rings(4096)

    denoiser = Denoiser()
    ema_denoiser = copy.deepcopy(denoiser)  # expect: DEV016
    ema_denoiser.requires_grad_(False)
    diffusion = GaussianDiffusion(denoiser).to(device)
    optimizer = torch.optim.AdamW(diffusion.parameters(), lr=2e-3)

    for step in range(steps):
        idx = torch.randint(0, data.size(0), (batch_size,))
        x0 = data[idx].to(device)
        loss = diffusion(x0)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        ema_update(ema_denoiser, denoiser, ema_decay)
        if step % 100 == 0:
            print(f"step {step:4d} loss {loss.item():.4f}")

    torch.save({"model": denoiser.state_dict(), "ema": ema_denoiser.state_dict()}, "ddpm_toy2d.pt")


if __name__ == "__main__":
    main()
