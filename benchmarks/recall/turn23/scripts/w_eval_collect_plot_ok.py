"""(Correct) Evaluate a trained encoder: collect embeddings over the test set, project them to 2-D and save a plot."""
import argparse
import os
import tempfile

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, in_dim=20, emb_dim=8, n_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, emb_dim))
        self.classifier = nn.Linear(emb_dim, n_classes)

    def forward(self, x):
        z = F.normalize(self.backbone(x), dim=-1)
        return z, self.classifier(z)


def test_batches(n=6, bs=16, in_dim=20):
    g = torch.Generator().manual_seed(3)
    return [(torch.randn(bs, in_dim, generator=g), torch.randint(0, 3, (bs,), generator=g))
            for _ in range(n)]


@torch.no_grad()
def collect(model, batches, device):
    model.eval()
    embeddings, labels, losses = [], [], []
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        z, logits = model(x)
        losses.append(F.cross_entropy(logits, y).item())
        embeddings.append(z.cpu())
        labels.append(y.cpu())
    return torch.cat(embeddings), torch.cat(labels), losses


def pca_2d(x):
    x = x.numpy()
    x = x - x.mean(0, keepdims=True)
    _, _, vt = np.linalg.svd(x, full_matrices=False)
    return x @ vt[:2].T


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "w_eval_embeddings_ok.png"))
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    model = Encoder().to(device)
    emb, labels, losses = collect(model, test_batches(), device)
    print(f"mean test loss {np.mean(losses):.4f} over {len(losses)} batches")

    xy = pca_2d(emb)
    fig, ax = plt.subplots(figsize=(4, 4))
    for c in range(3):
        m = labels.numpy() == c
        ax.scatter(xy[m, 0], xy[m, 1], s=8, label=f"class {c}")
    ax.legend()
    fig.savefig(args.out)
    print("saved", args.out)


if __name__ == "__main__":
    main()
