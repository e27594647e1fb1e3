"""Noise-prediction network for a DDPM: a sinusoidal timestep table built once in __init__ and looked
up with the batch's timesteps.

Thread: https://github.com/mattroz/diffusion-ddpm/issues/5 (layers.py: self.pe_matrix = torch.zeros(
max_timesteps, dimension) raises a similar device error).
"""
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, max_t, dim):
        super().__init__()
        pe = torch.zeros(max_t, dim)
        pos = torch.arange(max_t).unsqueeze(1)
        div = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.pe_matrix = pe  # expect: DEV010

    def forward(self, t):
        return self.pe_matrix[t]


class EpsNet(nn.Module):
    def __init__(self, d=16, T=100):
        super().__init__()
        self.pe = PositionalEncoding(T, 32)
        self.net = nn.Sequential(nn.Linear(d + 32, 64), nn.SiLU(), nn.Linear(64, d))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.pe(t)], -1))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    T = 100
    model = EpsNet(T=T).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    alpha_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.02, T), 0).to(device)
    for _ in range(5):
        x0 = torch.randn(32, 16, device=device)
        t = torch.randint(0, T, (32,), device=device)
        noise = torch.randn_like(x0)
        ab = alpha_bar[t][:, None]
        xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        loss = nn.functional.mse_loss(model(xt, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
