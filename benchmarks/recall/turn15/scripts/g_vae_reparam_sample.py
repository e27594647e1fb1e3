import argparse
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class VAEConfig:
    in_dim: int = 784
    hidden: int = 256
    latent: int = 16
    lr: float = 1e-3
    epochs: int = 2
    batch_size: int = 32
    beta: float = 1.0


class VAE(nn.Module):
    def __init__(self, cfg: VAEConfig):
        super().__init__()
        self.cfg = cfg
        self.enc = nn.Sequential(nn.Linear(cfg.in_dim, cfg.hidden), nn.ReLU())
        self.fc_mu = nn.Linear(cfg.hidden, cfg.latent)
        self.fc_logvar = nn.Linear(cfg.hidden, cfg.latent)
        self.dec = nn.Sequential(nn.Linear(cfg.latent, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, cfg.in_dim))

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn(std.size())  # expect: DEV006
        return mu + eps * std

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.fc_mu(h), self.fc_logvar(h)
        z = self.reparameterize(mu, logvar)
        return self.dec(z), mu, logvar


def vae_loss(recon_logits, x, mu, logvar, beta):
    rec = F.binary_cross_entropy_with_logits(recon_logits, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return (rec + beta * kld) / x.size(0)


@torch.no_grad()
def sample_images(model, n):
    model.eval()
    z = torch.randn(n, model.cfg.latent)  # expect: DEV006
    imgs = torch.sigmoid(model.dec(z))
    model.train()
    return imgs.view(n, 1, 28, 28)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    cfg = VAEConfig(epochs=args.epochs)
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    x = (torch.rand(128, cfg.in_dim) > 0.7).float()
    loader = DataLoader(TensorDataset(x), batch_size=cfg.batch_size, shuffle=True)

    model = VAE(cfg).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        total = 0.0
        for (xb,) in loader:
            xb = xb.to(device)
            recon, mu, logvar = model(xb)
            loss = vae_loss(recon, xb, mu, logvar, cfg.beta)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * xb.size(0)
        print(f"epoch {epoch}: loss {total / len(loader.dataset):.2f}")
        grid = sample_images(model, 16)
        print("samples", tuple(grid.shape), f"mean={grid.mean().item():.3f}")


if __name__ == "__main__":
    main()
