"""Train a small CNN on synthetic 'digits' and dump a confusion matrix + per-class report."""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import classification_report, confusion_matrix, ConfusionMatrixDisplay
from torch.utils.data import DataLoader, TensorDataset


class SmallCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 7 * 7, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


def make_loaders(n_train=256, n_val=128, bs=32):
    g = torch.Generator().manual_seed(0)
    xtr = torch.randn(n_train, 1, 28, 28, generator=g)
    ytr = torch.randint(0, 10, (n_train,), generator=g)
    xva = torch.randn(n_val, 1, 28, 28, generator=g)
    yva = torch.randint(0, 10, (n_val,), generator=g)
    return (DataLoader(TensorDataset(xtr, ytr), batch_size=bs, shuffle=True),
            DataLoader(TensorDataset(xva, yva), batch_size=bs))


def train_one_epoch(model, loader, opt, device):
    model.train()
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        total += loss.item() * x.size(0)
    return total / len(loader.dataset)


@torch.no_grad()
def predict(model, loader, device):
    model.eval()
    all_preds, all_targets = [], []
    for x, y in loader:
        logits = model(x.to(device))
        all_preds.append(logits.argmax(dim=1))
        all_targets.append(y)
    return all_preds, all_targets


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--no-cuda", action="store_true")
    p.add_argument("--out", default="confusion.png")
    args = p.parse_args()

    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    train_loader, val_loader = make_loaders()
    model = SmallCNN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        loss = train_one_epoch(model, train_loader, opt, device)
        print(f"epoch {epoch}: train loss {loss:.4f}")

    preds, targets = predict(model, val_loader, device)
    y_true = torch.cat(targets).numpy()
    y_pred = torch.cat(preds).numpy()  # expect: DEV011

    cm = confusion_matrix(y_true, y_pred, labels=list(range(10)))
    print(classification_report(y_true, y_pred, zero_division=0))
    print("accuracy:", np.trace(cm) / cm.sum())

    disp = ConfusionMatrixDisplay(cm)
    disp.plot(cmap="Blues")
    plt.savefig(args.out)


if __name__ == "__main__":
    main()
