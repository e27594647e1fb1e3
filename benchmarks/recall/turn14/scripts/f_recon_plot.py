"""Convolutional autoencoder on synthetic RGB blobs; saves a reconstruction grid after training."""
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

CHANNEL_MEAN = [0.42, 0.40, 0.37]
CHANNEL_STD = [0.26, 0.25, 0.27]


def make_blobs(n=256, size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    imgs = torch.zeros(n, 3, size, size)
    for i in range(n):
        cy, cx = torch.randint(6, size - 6, (2,), generator=g)
        r = torch.randint(3, 8, (1,), generator=g)
        color = torch.rand(3, 1, 1, generator=g)
        blob = (((yy - cy) ** 2 + (xx - cx) ** 2) < r ** 2).float()
        imgs[i] = 0.1 + color * blob
    return imgs.clamp(0, 1)


class Standardize(nn.Module):
    """Per-channel normalization in front of the encoder, inverse at the decoder output."""

    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(1, -1, 1, 1)  # expect: DEV010
        self.std = torch.tensor(std).view(1, -1, 1, 1)  # expect: DEV010

    def forward(self, x):
        return (x - self.mean) / self.std

    def inverse(self, x):
        return x * self.std + self.mean


class ConvAE(nn.Module):
    def __init__(self, latent=32):
        super().__init__()
        self.norm = Standardize(CHANNEL_MEAN, CHANNEL_STD)
        self.enc = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Flatten(), nn.Linear(32 * 8 * 8, latent),
        )
        self.dec_fc = nn.Linear(latent, 32 * 8 * 8)
        self.dec = nn.Sequential(
            nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1), nn.ReLU(),
            nn.ConvTranspose2d(16, 3, 4, stride=2, padding=1),
        )

    def forward(self, x):
        z = self.enc(self.norm(x))
        out = self.dec(self.dec_fc(z).view(-1, 32, 8, 8))
        return self.norm.inverse(out)


def save_reconstructions(model, images, path, device, n=6):
    model.eval()
    with torch.no_grad():
        recon = model(images[:n].to(device))
    fig, axes = plt.subplots(2, n, figsize=(2 * n, 4))
    for i in range(n):
        axes[0, i].imshow(images[i].permute(1, 2, 0).numpy())
        axes[1, i].imshow(recon[i].permute(1, 2, 0).clamp(0, 1).numpy())  # expect: DEV011
        axes[0, i].axis("off")
        axes[1, i].axis("off")
    fig.savefig(path)
    plt.close(fig)


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    images = make_blobs()
    loader = DataLoader(TensorDataset(images), batch_size=32, shuffle=True)
    model = ConvAE().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(3):
        model.train()
        running = 0.0
        for (batch,) in loader:
            batch = batch.to(device)
            loss = F.mse_loss(model(batch), batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}  mse {running / len(loader):.4f}")

    out = os.path.join(tempfile.gettempdir(), "ae_recon.png")
    save_reconstructions(model, images, out, device)
    print("wrote", out)


if __name__ == "__main__":
    main()
