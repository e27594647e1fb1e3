"""Defect classifier for synthetic wafer maps: trains, then writes a full evaluation report
(loss, macro-F1, confusion matrix figure, worst misclassified samples)."""
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import confusion_matrix, f1_score
from torch.utils.data import DataLoader, TensorDataset

CLASSES = ["none", "center", "edge", "scratch"]


def wafer_maps(n=800, size=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, size), torch.linspace(-1, 1, size), indexing="ij")
    r = torch.sqrt(xx ** 2 + yy ** 2)
    y = torch.randint(0, len(CLASSES), (n,), generator=g)
    maps = 0.2 * torch.rand(n, 1, size, size, generator=g)
    maps[y == 1, 0] += (r < 0.35).float()
    maps[y == 2, 0] += ((r > 0.75) & (r < 0.95)).float()
    maps[y == 3, 0] += ((yy - 0.6 * xx).abs() < 0.08).float()
    return TensorDataset(maps.clamp(0, 1), y)


class WaferCNN(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


@torch.no_grad()
def collect_predictions(model, loader, device):
    model.eval()
    losses, probs, targets, images = [], [], [], []
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        losses.append(F.cross_entropy(logits, y, reduction="none").cpu())
        probs.append(F.softmax(logits, dim=1).cpu())
        targets.append(y.cpu())
        images.append(x.cpu())
    return torch.cat(losses), torch.cat(probs), torch.cat(targets), torch.cat(images)


def report(losses, probs, targets, images, out_dir):
    preds = probs.argmax(dim=1).numpy()
    y_true = targets.numpy()
    print(f"val loss {losses.mean().item():.4f}  macro F1 {f1_score(y_true, preds, average='macro'):.3f}")

    cm = confusion_matrix(y_true, preds, labels=list(range(len(CLASSES))))
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.imshow(cm, cmap="Blues")
    ax.set_xticks(range(len(CLASSES)), CLASSES, rotation=45)
    ax.set_yticks(range(len(CLASSES)), CLASSES)
    for i in range(len(CLASSES)):
        for j in range(len(CLASSES)):
            ax.text(j, i, int(cm[i, j]), ha="center", va="center")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "wafer_confusion.png"))
    plt.close(fig)

    worst = losses.topk(6).indices
    fig, axes = plt.subplots(1, 6, figsize=(12, 2))
    for ax, i in zip(axes, worst.tolist()):
        ax.imshow(images[i, 0].numpy(), cmap="magma")
        ax.set_title(f"{CLASSES[y_true[i]]}->{CLASSES[preds[i]]}", fontsize=8)
        ax.axis("off")
    fig.savefig(os.path.join(out_dir, "wafer_worst.png"))
    plt.close(fig)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(wafer_maps(800, seed=0), batch_size=64, shuffle=True)
    val_loader = DataLoader(wafer_maps(200, seed=1), batch_size=100)
    model = WaferCNN(len(CLASSES)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(4):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}  train loss {loss.item():.4f}")

    report(*collect_predictions(model, val_loader, device), tempfile.gettempdir())


if __name__ == "__main__":
    main()
