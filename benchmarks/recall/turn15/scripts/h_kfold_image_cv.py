"""5-fold CV for the binary crack/no-crack classifier, best epoch per fold reloaded
from disk before out-of-fold prediction.

    python h_kfold_image_cv.py --folds 5 --epochs 10 --ckpt-dir ckpts/
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset, TensorDataset


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--folds", type=int, default=3)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--ckpt-dir", default=None)
    p.add_argument("--no-cuda", action="store_true")
    return p.parse_args()


class CrackNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(2 * width, 4 * width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(4 * width, 10)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1)).squeeze(-1)


def build_model():
    model = CrackNet()
    # binary task: swap the 10-way pretraining head for a single logit
    model.classifier = nn.Linear(model.classifier.in_features, 1)
    return model


def synthetic_images(n=300, size=32, pos_rate=0.2, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = (torch.rand(n, generator=g) < pos_rate).float()
    x = torch.randn(n, 1, size, size, generator=g) * 0.3
    for i in torch.nonzero(y).flatten().tolist():
        r = int(torch.randint(4, size - 4, (1,), generator=g))
        x[i, 0, r, :] += 2.0  # a "crack" is a bright horizontal line
    return TensorDataset(x, y)


def folds_of(n, k, seed=0):
    idx = np.random.default_rng(seed).permutation(n)
    return np.array_split(idx, k)


def predict(model, loader, device):
    model.eval()
    probs = []
    with torch.no_grad():
        for x, _ in loader:
            probs.append(torch.sigmoid(model(x.to(device))).cpu())
    return torch.cat(probs).numpy()


def fit_fold(fold, ds, tr_idx, va_idx, args, device, ckpt_dir):
    model = build_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    model.to(device)

    y_tr = ds.tensors[1][tr_idx]
    pos_weight = ((len(y_tr) - y_tr.sum()) / y_tr.sum().clamp(min=1)).reshape(1)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight.to(device))

    train_loader = DataLoader(Subset(ds, tr_idx), batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(Subset(ds, va_idx), batch_size=128)
    best_loss, best_path = float("inf"), os.path.join(ckpt_dir, f"fold{fold}.pt")

    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        val_loss, n = 0.0, 0
        with torch.no_grad():
            for x, y in val_loader:
                x, y = x.to(device), y.to(device)
                val_loss += criterion(model(x), y).item() * len(y)
                n += len(y)
        val_loss /= n
        if val_loss < best_loss:
            best_loss = val_loss
            torch.save({"epoch": epoch, "model": model.state_dict()}, best_path)

    best = build_model().to(device)
    best.load_state_dict(torch.load(best_path, map_location=device)["model"])
    return best_loss, predict(best, val_loader, device)


def main():
    args = parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")
    ds = synthetic_images()
    labels = ds.tensors[1].numpy()
    oof = np.zeros(len(ds), dtype=np.float32)

    with tempfile.TemporaryDirectory() as tmp:
        ckpt_dir = args.ckpt_dir or tmp
        os.makedirs(ckpt_dir, exist_ok=True)
        folds = folds_of(len(ds), args.folds)
        for k, va_idx in enumerate(folds):
            tr_idx = np.concatenate([f for j, f in enumerate(folds) if j != k])
            loss, probs = fit_fold(k, ds, tr_idx, va_idx, args, device, ckpt_dir)
            oof[va_idx] = probs
            acc = ((probs > 0.5) == labels[va_idx]).mean()
            print(f"fold {k}: best val loss {loss:.4f} acc {acc:.3f}")

    print(f"OOF accuracy {((oof > 0.5) == labels).mean():.3f}")


if __name__ == "__main__":
    main()
