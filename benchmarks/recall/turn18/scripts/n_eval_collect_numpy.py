"""Evaluate a small CNN: confusion matrix + calibration plot from collected outputs."""
import os
import tempfile

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_CLASSES = 5


class SmallCNN(nn.Module):
    def __init__(self, n_classes=N_CLASSES):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def confusion(y_true, y_pred, n):
    cm = np.zeros((n, n), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    return cm


@torch.no_grad()
def collect(model, loader, device):
    model.eval()
    preds, probs, targets = [], [], []
    for images, labels in loader:
        logits = model(images.to(device))
        preds.append(logits.argmax(dim=1).cpu())
        probs.append(F.softmax(logits, dim=1))
        targets.append(labels)
    return torch.cat(preds), probs, torch.cat(targets)


def plot_confusion(cm, path):
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.imshow(cm, cmap="Blues")
    for i in range(cm.shape[0]):
        for j in range(cm.shape[1]):
            ax.text(j, i, cm[i, j], ha="center", va="center", fontsize=7)
    ax.set_xlabel("predicted")
    ax.set_ylabel("true")
    fig.savefig(path)
    plt.close(fig)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(200, 1, 16, 16)
    y = torch.randint(0, N_CLASSES, (200,))
    loader = DataLoader(TensorDataset(x, y), batch_size=32)
    model = SmallCNN().to(device)

    preds, probs, targets = collect(model, loader, device)
    cm = confusion(targets.numpy(), preds.numpy(), N_CLASSES)
    acc = np.trace(cm) / cm.sum()

    all_probs = torch.cat(probs).numpy()  # expect: DEV011
    conf = all_probs.max(axis=1)
    bins = np.linspace(0, 1, 11)
    which = np.digitize(conf, bins) - 1
    reliab = [float((preds.numpy()[which == b] == targets.numpy()[which == b]).mean())
              if (which == b).any() else 0.0 for b in range(10)]

    out_dir = tempfile.mkdtemp()
    plot_confusion(cm, os.path.join(out_dir, "cm.png"))
    print(f"acc={acc:.3f} mean conf={conf.mean():.3f} reliability={np.round(reliab, 2)}")


if __name__ == "__main__":
    main()
