"""FixMatch-style semi-supervised training with a labeled and an unlabeled loader zipped together.

Written from two-loader threads ("how to you work with two data loaders?",
vfdev-5/UDA-pytorch#2; "About the lengths of train_loader and unlabeled_loader",
FlyreelAI/sesemi#4) and "Class weights need to be sent to the device when
use_class_weights=True" (sacdallago/biotrainer#67): the weak view of the
unlabeled batch is never moved, and the class-balanced loss keeps its weights
on the CPU.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset


class TwoViews(Dataset):
    """Unlabeled samples returned as (weak, strong) augmentations."""

    def __init__(self, x):
        self.x = x

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        x = self.x[i]
        weak = x + 0.05 * torch.randn_like(x)
        strong = x * (torch.rand_like(x) > 0.2) + 0.3 * torch.randn_like(x)
        return weak, strong


def make_data(seed=0, n_labeled=60, n_unlabeled=600, dim=12, num_classes=3):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(num_classes, dim, generator=g) * 2
    probs = torch.tensor([0.6, 0.3, 0.1])
    y = torch.multinomial(probs, n_labeled + n_unlabeled, replacement=True, generator=g)
    x = centers[y] + torch.randn(len(y), dim, generator=g)
    return (x[:n_labeled], y[:n_labeled]), x[n_labeled:], y[n_labeled:]


def main(epochs=10, tau=0.9, lambda_u=1.0):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    (x_lab, y_lab), x_unlab, y_unlab = make_data()
    labeled_loader = DataLoader(TensorDataset(x_lab, y_lab), batch_size=16, shuffle=True, drop_last=True)
    unlabeled_loader = DataLoader(TwoViews(x_unlab), batch_size=112, shuffle=True, drop_last=True)

    counts = np.bincount(y_lab.numpy(), minlength=3).astype(np.float32)
    weights = counts.sum() / (len(counts) * np.maximum(counts, 1))
    criterion = nn.CrossEntropyLoss(weight=torch.tensor(weights, dtype=torch.float32))  # expect: DEV012

    model = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)

    for epoch in range(epochs):
        model.train()
        total, n_masked = 0.0, 0
        for (x_l, y_l), (u_weak, u_strong) in zip(labeled_loader, unlabeled_loader):
            x_l, y_l = x_l.to(device), y_l.to(device)
            u_strong = u_strong.to(device)

            logits_l = model(x_l)
            with torch.no_grad():
                pseudo = model(u_weak).softmax(dim=1)  # expect: DEV002
            conf, pseudo_labels = pseudo.max(dim=1)
            mask = (conf >= tau).float()
            loss_u = (F.cross_entropy(model(u_strong), pseudo_labels, reduction="none") * mask).mean()
            loss = criterion(logits_l, y_l) + lambda_u * loss_u

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
            n_masked += int(mask.sum().item())
        print(f"epoch {epoch} loss {total:.3f} confident pseudo-labels {n_masked}")

    model.eval()
    with torch.no_grad():
        acc = (model(x_unlab.to(device)).argmax(dim=1).cpu() == y_unlab).float().mean().item()
    print(f"accuracy on the unlabeled pool: {acc:.3f}")


if __name__ == "__main__":
    main()
