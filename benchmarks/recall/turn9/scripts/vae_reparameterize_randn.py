"""Fully connected VAE on flattened 28x28 images; the reparameterisation draws its own noise.

Thread: https://github.com/timbmg/VAE-CVAE-MNIST/pull/4 (Fix crashes when using GPU: a separate
reparameterize function, tensors moved to 'device').
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class VAE(nn.Module):
    def __init__(self, d_in=784, d_lat=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU())
        self.mu, self.logvar = nn.Linear(128, d_lat), nn.Linear(128, d_lat)
        self.dec = nn.Sequential(nn.Linear(d_lat, 128), nn.ReLU(), nn.Linear(128, d_in), nn.Sigmoid())

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn(std.size())  # expect: DEV006
        return mu + eps * std

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        return self.dec(self.reparameterize(mu, logvar)), mu, logvar


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = VAE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(torch.rand(128, 784)), batch_size=32)
    for (x,) in loader:
        x = x.to(device)
        recon, mu, logvar = model(x)
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        loss = F.binary_cross_entropy(recon, x, reduction="sum") + kld
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
