"""Rectified-flow / flow-matching on 2-D data with a torch.compile'd velocity network."""
import argparse
import math

import torch
import torch.nn as nn


class FourierTime(nn.Module):
    def __init__(self, dim=32, max_period=10_000):
        super().__init__()
        self.dim, self.max_period = dim, max_period

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(self.max_period) * torch.arange(half, dtype=t.dtype, device=t.device) / half)
        ang = 1000 * t[:, None] * freqs[None]
        return torch.cat([ang.cos(), ang.sin()], dim=-1)


class VelocityNet(nn.Module):
    def __init__(self, dim=2, hidden=128, tdim=32):
        super().__init__()
        self.temb = FourierTime(tdim)
        self.net = nn.Sequential(nn.Linear(dim + tdim, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, dim))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.temb(t)], dim=-1))


class FlowMatchingLoss(nn.Module):
    def __init__(self, sigma_min=1e-4):
        super().__init__()
        self.sigma_min = torch.tensor(sigma_min)

    def forward(self, model, x1):
        x0 = torch.randn_like(x1)
        t = torch.rand(x1.shape[0], device=x1.device)
        tt = t[:, None]
        x_t = (1 - (1 - self.sigma_min) * tt) * x0 + tt * x1
        target = x1 - (1 - self.sigma_min) * x0
        return (model(x_t, t) - target).pow(2).mean()


@torch.no_grad()
def euler_sample(model, n, steps, device):
    x = torch.randn(n, 2, device=device)
    dt = 1.0 / steps
    for i in range(steps):
        t = torch.full((n,), i * dt, device=device)
        x = x + dt * model(x, t)
    return x


def moons(n):
    a = math.pi * torch.rand(n)
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, a.cos(), 1 - a.cos())
    y = torch.where(upper, a.sin(), 0.5 - a.sin())
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--no-compile", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = VelocityNet().to(device)
    fwd = model if args.no_compile else torch.compile(model, backend=args.backend)
    criterion = FlowMatchingLoss()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = moons(4096)

    for step in range(args.steps):
        x1 = data[torch.randint(0, len(data), (256,))].to(device)
        loss = criterion(fwd, x1)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.4f}")

    samples = euler_sample(fwd, 512, 20, device).cpu()
    print("sample mean", samples.mean(0).tolist(), "std", samples.std(0).tolist())


if __name__ == "__main__":
    main()
