"""DDPM with registered schedule buffers, EMA and an ancestral sampler (correct look-alike).

Written from "[DDIM, DDPM] fix add_noise" (huggingface/diffusers#648),
"bug in ddpm scheduler" (huggingface/diffusers#3089) and
"[Examples] Make sure EMA works with any device" (huggingface/diffusers#2382):
the schedule tensors are buffers that follow `.to(device)`, the EMA copy is
taken after the move, every tensor of the sampling loop is made on the
device, and only CPU copies reach NumPy and matplotlib.
"""
import copy
import math
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F


class NoiseSchedule(nn.Module):
    def __init__(self, timesteps=100):
        super().__init__()
        steps = torch.arange(timesteps + 1, dtype=torch.float64) / timesteps
        f = torch.cos((steps + 0.008) / 1.008 * math.pi / 2) ** 2
        betas = (1 - f[1:] / f[:-1]).clamp(max=0.999).float()
        self.timesteps = timesteps
        self.register_buffer("betas", betas)
        self.register_buffer("alphas_cumprod", torch.cumprod(1 - betas, dim=0))


class Denoiser(nn.Module):
    def __init__(self, timesteps, hidden=128):
        super().__init__()
        self.t_embed = nn.Embedding(timesteps, hidden)
        self.inp = nn.Linear(2, hidden)
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x, t):
        return self.out(self.inp(x) + self.t_embed(t))


def spiral(n):
    theta = torch.rand(n) * 3 * math.pi
    return torch.stack([theta.cos() * theta, theta.sin() * theta], dim=1) / 10 + 0.02 * torch.randn(n, 2)


@torch.no_grad()
def sample(model, sched, n, device):
    x = torch.randn(n, 2, device=device)
    for i in reversed(range(sched.timesteps)):
        t = torch.full((n,), i, device=device, dtype=torch.long)
        beta, a_bar = sched.betas[i], sched.alphas_cumprod[i]
        eps = model(x, t)
        mean = (x - beta / (1 - a_bar).sqrt() * eps) / (1 - beta).sqrt()
        x = mean + beta.sqrt() * torch.randn_like(x) if i > 0 else mean
    return x


def main(steps=800):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    sched = NoiseSchedule().to(device)
    model = Denoiser(sched.timesteps).to(device)
    ema = copy.deepcopy(model).eval().requires_grad_(False)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = spiral(5000)

    for step in range(steps):
        x0 = data[torch.randint(0, len(data), (256,))].to(device)
        t = torch.randint(0, sched.timesteps, (x0.size(0),), device=device)
        noise = torch.randn_like(x0)
        a_bar = sched.alphas_cumprod[t].unsqueeze(1)
        loss = F.mse_loss(model(a_bar.sqrt() * x0 + (1 - a_bar).sqrt() * noise, t), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            for e, p in zip(ema.parameters(), model.parameters()):
                e.lerp_(p, 0.01)

    pts = sample(ema, sched, 1000, device).cpu().numpy()
    plt.figure(figsize=(4, 4))
    plt.scatter(pts[:, 0], pts[:, 1], s=2)
    out = os.path.join(tempfile.gettempdir(), "ddpm_spiral.png")
    plt.savefig(out)
    print(f"final loss {loss.item():.4f}, samples saved to {out}")


if __name__ == "__main__":
    main()
