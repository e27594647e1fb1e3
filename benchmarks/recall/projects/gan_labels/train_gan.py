"""Train a small GAN on points sampled from a ring of eight Gaussians."""
import math

import torch
from torch.utils.data import DataLoader, TensorDataset

from losses import discriminator_loss, generator_loss
from nets import Discriminator, Generator, sample_noise


def ring_dataset(n=512, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,))
    angle = k.float() * (2 * math.pi / modes)
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return TensorDataset(centers + std * torch.randn(n, 2))


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(ring_dataset(), batch_size=64, shuffle=True, drop_last=True)
    G, D = Generator().to(device), Discriminator().to(device)
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))

    for epoch in range(3):
        for (real,) in loader:
            real = real.to(device)
            fake = G(sample_noise(real.size(0)))

            d_loss = discriminator_loss(D(real), D(fake.detach()))
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()

            g_loss = generator_loss(D(fake))
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()
        print(f"epoch {epoch}: d_loss {d_loss.item():.3f} g_loss {g_loss.item():.3f}")


if __name__ == "__main__":
    main()
