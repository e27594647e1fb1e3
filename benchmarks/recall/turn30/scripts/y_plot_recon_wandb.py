"""Denoising autoencoder on synthetic 16x16 blobs, logged to Weights & Biases:
scalar losses every step, a reconstruction grid and a matplotlib figure per epoch."""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import wandb
from torch.utils.data import DataLoader, TensorDataset


def blobs(n=256, size=16, seed=0):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[:size, :size]
    cy, cx = rng.uniform(3, size - 3, (2, n, 1, 1))
    r = rng.uniform(1.5, 4, (n, 1, 1))
    img = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * r ** 2))
    return torch.from_numpy(img[:, None].astype(np.float32))


class DAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.dec = nn.Sequential(nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(16, 1, 4, 2, 1), nn.Sigmoid())

    def forward(self, x):
        return self.dec(self.enc(x))


def make_grid(images, nrow=4):
    """(B, 1, H, W) -> (nrow*H, ncol*W) tiled image."""
    b, _, h, w = images.shape
    ncol = (b + nrow - 1) // nrow
    grid = images.new_zeros(nrow * h, ncol * w)
    for i in range(b):
        r, c = divmod(i, ncol)
        grid[r * h:(r + 1) * h, c * w:(c + 1) * w] = images[i, 0]
    return grid


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--noise", type=float, default=0.3)
    parser.add_argument("--wandb-mode", default="disabled")
    args = parser.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    run = wandb.init(project="dae-blobs", mode=args.wandb_mode, config=vars(args))

    loader = DataLoader(TensorDataset(blobs()), batch_size=32, shuffle=True)
    model = DAE().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    for epoch in range(args.epochs):
        for (x,) in loader:
            x = x.to(device)
            noisy = (x + args.noise * torch.randn(x.shape)).clamp(0, 1)  # expect: DEV006
            recon = model(noisy)
            loss = F.mse_loss(recon, x)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            wandb.log({"train/loss": loss.item()}, step=step)
            step += 1

        model.eval()
        with torch.no_grad():
            sample = x[:8]
            grid = make_grid(torch.cat([sample, model(sample)]))
        wandb.log({"recon": wandb.Image(grid.numpy(), caption=f"epoch {epoch}")}, step=step)  # expect: DEV011
        fig, ax = plt.subplots()
        ax.imshow(grid.cpu().numpy(), cmap="gray")
        ax.set_title(f"epoch {epoch} loss {loss.item():.4f}")
        wandb.log({"recon_fig": wandb.Image(fig)}, step=step)
        plt.close(fig)
        model.train()
    run.finish()


if __name__ == "__main__":
    main()
