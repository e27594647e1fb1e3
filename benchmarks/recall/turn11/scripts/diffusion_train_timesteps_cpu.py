"""DDPM training of a small MLP denoiser on 2-D toy data (two noisy arcs); the timestep of each
example is embedded by the network.

Thread: https://github.com/mattroz/diffusion-ddpm/issues/5 (RuntimeError: indices should be either
on cpu or on the same device as the indexed tensor: schedule and timesteps on different devices).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

T = 200


class Denoiser(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.t_emb = nn.Embedding(T, 32)
        self.net = nn.Sequential(nn.Linear(2 + 32, d), nn.SiLU(), nn.Linear(d, d), nn.SiLU(),
                                 nn.Linear(d, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.t_emb(t)], dim=-1))


def two_arcs(n=1024):
    theta = torch.rand(n) * math.pi
    upper = torch.stack([theta.cos(), theta.sin()], 1)
    lower = torch.stack([1 - theta.cos(), 0.5 - theta.sin()], 1)
    pick = (torch.rand(n) < 0.5).unsqueeze(1)
    return torch.where(pick, upper, lower) + 0.05 * torch.randn(n, 2)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    betas = torch.linspace(1e-4, 0.02, T)
    alpha_bar = torch.cumprod(1 - betas, dim=0).to(device)
    model = Denoiser().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    loader = DataLoader(TensorDataset(two_arcs()), batch_size=128, shuffle=True)
    for epoch in range(3):
        for (x0,) in loader:
            x0 = x0.to(device)
            t = torch.randint(0, T, (x0.size(0),))  # expect: DEV006
            noise = torch.randn_like(x0)
            ab = alpha_bar[t].unsqueeze(-1)  # CPU indices into the device schedule are fine
            x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
            loss = F.mse_loss(model(x_t, t), noise)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: eps-mse {loss.item():.4f}")


if __name__ == "__main__":
    main()
