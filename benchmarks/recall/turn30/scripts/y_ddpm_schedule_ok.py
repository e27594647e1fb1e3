"""Minimal DDPM on a 2-D two-moons-like point cloud: linear beta schedule, epsilon
prediction with a sinusoidal time embedding, ancestral sampling loop. The schedule stays on the CPU for the sampler
(indexed by Python ints: 0-dim values) and is copied to the device for the training lookups."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def two_moons(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.rand(n, generator=g) * math.pi
    upper = torch.rand(n, generator=g) < 0.5
    x = torch.where(upper, t.cos(), 1 - t.cos())
    y = torch.where(upper, t.sin(), 0.5 - t.sin())
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2, generator=g)


class TimeEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=t.device) / half)
        args = t.float()[:, None] * freqs[None, :]
        return torch.cat([args.sin(), args.cos()], dim=1)


class EpsNet(nn.Module):
    def __init__(self, hidden=128, t_dim=32):
        super().__init__()
        self.temb = TimeEmbedding(t_dim)
        self.net = nn.Sequential(nn.Linear(2 + t_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden),
                                 nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.temb(t)], dim=1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--T", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--n-samples", type=int, default=256)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    T = args.T
    betas = torch.linspace(1e-4, 0.02, T)
    alphas = 1.0 - betas
    alphas_bar = torch.cumprod(alphas, dim=0)
    alphas_bar_dev = alphas_bar.to(device)

    data = two_moons(4096).to(device)
    model = EpsNet().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    for step in range(args.steps):
        x0 = data[torch.randint(0, data.size(0), (args.batch_size,))]
        t = torch.randint(0, T, (args.batch_size,), device=device)
        noise = torch.randn_like(x0)
        ab = alphas_bar_dev[t].unsqueeze(1)
        xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        loss = F.mse_loss(model(xt, t), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        x = torch.randn(args.n_samples, 2, device=device)
        for i in reversed(range(T)):
            t_b = torch.full((args.n_samples,), i, dtype=torch.long, device=device)
            eps = model(x, t_b)
            a, ab, b = alphas[i], alphas_bar[i], betas[i]
            mean = (x - b / (1 - ab).sqrt() * eps) / a.sqrt()
            x = mean + b.sqrt() * torch.randn_like(x) if i > 0 else mean
    print("sample mean", x.mean(0).tolist(), "std", x.std(0).tolist())


if __name__ == "__main__":
    main()
