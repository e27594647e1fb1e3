"""RealNVP on 2-D toy data; coupling masks are buffers, every batch is moved in
the loop and the prior samples are drawn on the flow's device."""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def two_moons(n=1024):
    t = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], 1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], 1)
    x = torch.cat([upper, lower])[torch.randperm(2 * n)[:n]]
    return x + 0.05 * torch.randn_like(x)


class ActNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))

    @torch.no_grad()
    def data_init(self, x):
        self.loc.copy_(-x.mean(0))
        self.log_scale.copy_(-torch.log(x.std(0) + 1e-6))

    def forward(self, x):
        return (x + self.loc) * self.log_scale.exp(), self.log_scale.sum().expand(x.shape[0])

    def inverse(self, y):
        return y * (-self.log_scale).exp() - self.loc


class AffineCoupling(nn.Module):
    def __init__(self, mask, hidden=64):
        super().__init__()
        self.register_buffer("mask", mask)
        d = mask.numel()
        self.net = nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 2 * d))

    def forward(self, x):
        xm = x * self.mask
        s, t = self.net(xm).chunk(2, dim=1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        return xm + (1 - self.mask) * (x * s.exp() + t), s.sum(1)

    def inverse(self, y):
        ym = y * self.mask
        s, t = self.net(ym).chunk(2, dim=1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        return ym + (1 - self.mask) * ((y - t) * (-s).exp())


class RealNVP(nn.Module):
    def __init__(self, dim=2, n_layers=6):
        super().__init__()
        self.dim = dim
        self.actnorm = ActNorm(dim)
        masks = [torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0]) for i in range(n_layers)]
        self.layers = nn.ModuleList(AffineCoupling(m) for m in masks)

    def log_prob(self, x):
        z, logdet = self.actnorm(x)
        for layer in self.layers:
            z, ld = layer(z)
            logdet = logdet + ld
        base = -0.5 * (z ** 2).sum(1) - 0.5 * self.dim * math.log(2 * math.pi)
        return base + logdet

    @torch.no_grad()
    def sample(self, n):
        z = torch.randn(n, self.dim, device=self.actnorm.loc.device)
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return self.actnorm.inverse(z)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(two_moons()), batch_size=128, shuffle=True)
    flow = RealNVP().to(device)

    first, = next(iter(loader))
    flow.actnorm.data_init(first.to(device))

    opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
    step = 0
    for epoch in range(4):
        for x, in loader:
            x = x.to(device)
            loss = -flow.log_prob(x).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 10 == 0:
                samples = flow.sample(256)
                print(f"step {step}: nll {loss.item():.3f}, sample mean {samples.mean(0).tolist()}")


if __name__ == "__main__":
    main()
