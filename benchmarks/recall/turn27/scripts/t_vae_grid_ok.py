"""VAE on 8x8 toy digits with a 2-D latent; decodes a latent grid for a figure."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class VAE(nn.Module):
    def __init__(self, d=64, h=128, z=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, h), nn.ReLU())
        self.mu = nn.Linear(h, z)
        self.logvar = nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d))

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        return torch.sigmoid(self.dec(z))

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        return self.decode(self.reparameterize(mu, logvar)), mu, logvar


def loss_fn(recon, x, mu, logvar):
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return (bce + kld) / x.size(0)


parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--grid", type=int, default=6)
parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
args = parser.parse_args()

device = torch.device(args.device)
data = torch.rand(300, 64).round()
loader = DataLoader(TensorDataset(data), batch_size=50, shuffle=True)
vae = VAE().to(device)
opt = torch.optim.Adam(vae.parameters(), lr=1e-3)

for epoch in range(args.epochs):
    vae.train()
    for (x,) in loader:
        x = x.to(device)
        recon, mu, logvar = vae(x)
        loss = loss_fn(recon, x, mu, logvar)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.2f}")

vae.eval()
lin = torch.linspace(-2.0, 2.0, args.grid, device=device)
grid = torch.cartesian_prod(lin, lin)
with torch.no_grad():
    tiles = vae.decode(grid).view(args.grid, args.grid, 8, 8).cpu().numpy()
canvas = np.concatenate([np.concatenate(list(row), axis=1) for row in tiles], axis=0)
print("canvas", canvas.shape, float(canvas.mean()))
