"""DDPM training and ancestral sampling on 2-D toy data: the noise schedule is built once at module level."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T = 200
betas = torch.linspace(1e-4, 0.02, T)  # expect: DEV006
alphas = 1.0 - betas
alpha_bars = torch.cumprod(alphas, dim=0)


class Denoiser(nn.Module):
    def __init__(self, dim=2, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 16, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, dim))

    def forward(self, x, t):
        freqs = torch.exp(-math.log(1000) * torch.arange(8, device=x.device) / 8)
        emb = torch.cat([torch.sin(t[:, None] * freqs), torch.cos(t[:, None] * freqs)], dim=-1)
        return self.net(torch.cat([x, emb], dim=-1))


def two_moons(n):
    theta = torch.rand(n) * math.pi
    upper = torch.stack([torch.cos(theta), torch.sin(theta)], 1)
    lower = torch.stack([1 - torch.cos(theta), 0.5 - torch.sin(theta)], 1)
    return torch.where(torch.rand(n, 1) < 0.5, upper, lower) + 0.05 * torch.randn(n, 2)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Denoiser().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(2000):
        x0 = two_moons(512).to(device)
        t = torch.randint(0, T, (x0.size(0),), device=device)
        noise = torch.randn_like(x0)
        ab = alpha_bars[t].unsqueeze(-1)
        xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        loss = F.mse_loss(model(xt, t.float()), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
    x = torch.randn(1000, 2, device=device)
    with torch.no_grad():
        for i in reversed(range(T)):
            t = torch.full((x.size(0),), i, device=device)
            eps = model(x, t.float())
            x = (x - betas[i] / (1 - alpha_bars[i]).sqrt() * eps) / alphas[i].sqrt()
            if i > 0:
                x = x + betas[i].sqrt() * torch.randn_like(x)
    print(x.mean(0), x.std(0))


if __name__ == "__main__":
    main()
