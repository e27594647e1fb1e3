"""Beta-VAE on 8x8 synthetic glyphs with a linear KL warm-up.

Written from "Process the batch_data to get training going"
(CSAILVision/semantic-segmentation-pytorch#58, a single next(iter(...)) batch
moved to the GPU while the loop keeps CPU batches) and "Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the
same" (ANYMS-A/Skeleton_Aware_Networks_for_Deep_Motion_Retargeting#1): the
peeked batch is moved once before training and the batches of the loop are
never moved. The KL weight is a 0-dim CPU tensor, which is fine.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def glyphs(n=2048, seed=0):
    g = torch.Generator().manual_seed(seed)
    imgs = torch.zeros(n, 1, 8, 8)
    rows = torch.randint(0, 8, (n,), generator=g)
    cols = torch.randint(0, 8, (n,), generator=g)
    imgs[torch.arange(n), 0, rows, :] = 1.0
    imgs[torch.arange(n), 0, :, cols] = 1.0
    return TensorDataset(imgs, rows)


class VAE(nn.Module):
    def __init__(self, latent=4, hidden=128):
        super().__init__()
        self.enc = nn.Sequential(nn.Flatten(), nn.Linear(64, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, latent)
        self.logvar = nn.Linear(hidden, latent)
        self.dec = nn.Sequential(nn.Linear(latent, hidden), nn.ReLU(), nn.Linear(hidden, 64))

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + std * torch.randn_like(std)

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = self.reparameterize(mu, logvar)
        return self.dec(z).view(-1, 1, 8, 8), mu, logvar


def main(epochs=10, max_beta=2.0):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(glyphs(), batch_size=128, shuffle=True)

    images, _ = next(iter(loader))
    images = images.to(device)  # expect: DEV003
    print("batch shape", tuple(images.shape), "device", images.device)

    model = VAE().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    betas = torch.linspace(0.0, max_beta, epochs)
    for epoch in range(epochs):
        beta = betas[epoch]
        total = 0.0
        for images, _ in loader:
            recon_logits, mu, logvar = model(images)  # also: DEV002
            recon = F.binary_cross_entropy_with_logits(recon_logits, images, reduction="sum") / images.size(0)
            kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))
            loss = recon + beta * kl
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} beta {beta.item():.2f} loss {total / len(loader):.3f}")


if __name__ == "__main__":
    main()
