"""Evaluate a convolutional autoencoder for anomaly scoring: per-image errors, a histogram, a recon grid, optional wandb logging."""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ConvAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 8, 3, 2, 1), nn.ReLU(), nn.Conv2d(8, 16, 3, 2, 1), nn.ReLU())
        self.dec = nn.Sequential(
            nn.ConvTranspose2d(16, 8, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(8, 1, 4, 2, 1), nn.Sigmoid()
        )

    def forward(self, x):
        return self.dec(self.enc(x))


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    recons, errors, labels = [], [], []
    for x, y in loader:
        x = x.to(device)
        r = model(x)
        recons.append(r)
        errors.append(((r - x) ** 2).mean(dim=(1, 2, 3)))
        labels.append(y)
    errors = torch.cat(errors).numpy()  # expect: DEV011
    labels = torch.cat(labels).numpy()
    return x, recons[-1], errors, labels


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wandb", action="store_true")
    ap.add_argument("--out", default="/tmp/r_recon.png")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    imgs = torch.rand(128, 1, 16, 16)
    is_anomaly = (torch.rand(128) < 0.1).long()
    imgs[is_anomaly.bool()] = imgs[is_anomaly.bool()].pow(4)
    loader = DataLoader(TensorDataset(imgs, is_anomaly), batch_size=32)
    model = ConvAE().to(device)

    last_x, last_recon, errors, labels = evaluate(model, loader, device)
    threshold = np.quantile(errors, 0.9)
    recall = float(((errors > threshold) & (labels == 1)).sum() / max(labels.sum(), 1))

    fig, axes = plt.subplots(2, 8, figsize=(12, 3))
    for i in range(8):
        axes[0, i].imshow(last_x[i, 0].cpu().numpy(), cmap="gray")
        axes[1, i].imshow(last_recon[i, 0].numpy(), cmap="gray")  # expect: DEV011
        axes[0, i].axis("off")
        axes[1, i].axis("off")
    fig.savefig(args.out)

    hist_fig = plt.figure()
    plt.hist(errors, bins=30)
    if args.wandb:
        import wandb

        wandb.init(project="ae-anomaly")
        wandb.log({"recall@q90": recall, "errors": wandb.Histogram(errors), "recon": wandb.Image(fig), "hist": wandb.Image(hist_fig)})
    print("recall", recall)


if __name__ == "__main__":
    main()
