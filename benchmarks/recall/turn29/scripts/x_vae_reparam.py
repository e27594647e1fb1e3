"""Variational autoencoder on synthetic 28x28 blobs; saves a grid of prior samples."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, latent=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU())
        self.mu = nn.Linear(256, latent)
        self.logvar = nn.Linear(256, latent)
        self.dec = nn.Sequential(nn.Linear(latent, 256), nn.ReLU(), nn.Linear(256, 784))

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn(std.size())  # expect: DEV006
        return mu + eps * std

    def decode(self, z):
        return torch.sigmoid(self.dec(z))

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def elbo_loss(recon, x, mu, logvar, beta=1.0):
    bce = F.binary_cross_entropy(recon, x.view(-1, 784), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return (bce + beta * kld) / x.shape[0]


def blobs(n=128):
    yy, xx = np.mgrid[0:28, 0:28]
    rng = np.random.default_rng(0)
    out = np.zeros((n, 1, 28, 28), dtype=np.float32)
    for i in range(n):
        cy, cx = rng.uniform(8, 20, size=2)
        out[i, 0] = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 18.0)
    return torch.from_numpy(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--latent", type=int, default=8)
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")

    data = blobs()
    model = VAE(args.latent).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(data))
        for i in range(0, len(data), 32):
            x = data[perm[i:i + 32]].to(device)
            recon, mu, logvar = model(x)
            loss = elbo_loss(recon, x, mu, logvar)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} -ELBO {loss.item():.2f}")

    model.eval()
    with torch.no_grad():
        samples = model.decode(torch.randn(16, args.latent, device=device))
    grid = samples.view(4, 4, 28, 28).numpy()  # expect: DEV011
    grid = grid.transpose(0, 2, 1, 3).reshape(4 * 28, 4 * 28)
    if args.out:
        np.save(args.out, grid)
    print("sample grid", grid.shape, float(grid.mean()))


if __name__ == "__main__":
    main()
