"""Conv VAE with linear KL annealing (Bowman et al. 2016) and free bits.

    python p_vae_kl_annealing.py --epochs 3 --warmup-steps 30
"""
import argparse
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    epochs: int = 3
    batch_size: int = 64
    latent_dim: int = 8
    lr: float = 1e-3
    warmup_steps: int = 30
    free_bits: float = 0.1
    out_png: str = "/tmp/p_vae_prior_samples.png"


class ConvVAE(nn.Module):
    def __init__(self, latent_dim):
        super().__init__()
        self.latent_dim = latent_dim
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 16, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(16, 32, 4, 2, 1), nn.ReLU(), nn.Flatten(),
        )
        self.to_stats = nn.Linear(32 * 4 * 4, 2 * latent_dim)
        self.from_z = nn.Linear(latent_dim, 32 * 4 * 4)
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(16, 1, 4, 2, 1),
        )

    def encode(self, x):
        mu, logvar = self.to_stats(self.encoder(x)).chunk(2, dim=1)
        return mu, logvar

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z):
        return self.decoder(self.from_z(z).view(-1, 32, 4, 4))

    def forward(self, x):
        mu, logvar = self.encode(x)
        return self.decode(self.reparameterize(mu, logvar)), mu, logvar

    @torch.no_grad()
    def sample(self, n):
        z = torch.randn(n, self.latent_dim, device=self.from_z.weight.device)
        return torch.sigmoid(self.decode(z))


def toy_images(n=640):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    cx, cy = torch.randint(3, 13, (2, n, 1, 1)).float()
    r = torch.randint(2, 5, (n, 1, 1)).float()
    return (((xx - cx) ** 2 + (yy - cy) ** 2) < r ** 2).float().unsqueeze(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    ap.add_argument("--warmup-steps", type=int, default=TrainConfig.warmup_steps)
    cfg = TrainConfig(**vars(ap.parse_args()))
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    loader = DataLoader(TensorDataset(toy_images()), batch_size=cfg.batch_size, shuffle=True)
    model = ConvVAE(cfg.latent_dim).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    beta_schedule = torch.linspace(0.0, 1.0, cfg.warmup_steps)

    step = 0
    for epoch in range(cfg.epochs):
        for (x,) in loader:
            x = x.to(device)
            logits, mu, logvar = model(x)
            rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / x.size(0)
            kl_per_dim = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).mean(0)
            kl = torch.clamp(kl_per_dim, min=cfg.free_bits).sum()
            beta = beta_schedule[min(step, cfg.warmup_steps - 1)]
            loss = rec + beta * kl
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
        print(f"epoch {epoch}: rec {rec.item():.2f} kl {kl.item():.2f} beta {beta.item():.2f}")

    samples = model.sample(16).cpu().numpy()
    fig, axes = plt.subplots(2, 8, figsize=(8, 2))
    for ax, img in zip(axes.flat, samples):
        ax.imshow(img[0], cmap="gray")
        ax.axis("off")
    fig.savefig(cfg.out_png)


if __name__ == "__main__":
    main()
