"""MLP generator and discriminator for a toy 2-D ring-of-Gaussians GAN."""
import torch
import torch.nn as nn

LATENT_DIM = 8


def sample_noise(n, latent_dim=LATENT_DIM):
    return torch.randn(n, latent_dim)  # expect: DEV006


class Generator(nn.Module):
    def __init__(self, latent_dim=LATENT_DIM, hidden=64, out_dim=2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(latent_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, out_dim),
        )

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, in_dim=2, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.LeakyReLU(0.2),
            nn.Linear(hidden, hidden), nn.LeakyReLU(0.2),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)
