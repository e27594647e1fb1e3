"""Conditional MLP GAN: the generator works in normalized space and de-normalizes its output."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LATENT_DIM, N_CLASSES = 8, 4


def sample_noise(n, device, latent_dim=LATENT_DIM):
    return torch.randn(n, latent_dim, device=device)


class Generator(nn.Module):
    def __init__(self, data_mean, data_std, latent_dim=LATENT_DIM, hidden=64):
        super().__init__()
        self.register_buffer("data_mean", torch.as_tensor(data_mean, dtype=torch.float32))
        self.register_buffer("data_std", torch.as_tensor(data_std, dtype=torch.float32))
        self.net = nn.Sequential(nn.Linear(latent_dim + N_CLASSES, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, z, labels):
        h = torch.cat([z, F.one_hot(labels, N_CLASSES).to(z.dtype)], dim=1)
        return self.net(h) * self.data_std + self.data_mean


class Discriminator(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(N_CLASSES, 8)
        self.net = nn.Sequential(nn.Linear(2 + 8, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 1))

    def forward(self, x, labels):
        return self.net(torch.cat([x, self.embed(labels)], dim=1))
