"""Evaluate a fraud-detection MLP: collect scores over the test loader, then
ROC-AUC, the best-F1 threshold and a precision@k table with NumPy.

    python p_eval_collect_numpy.py --train-epochs 2
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def synthetic(n, d=12, fraud_rate=0.1, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = (torch.rand(n, generator=g) < fraud_rate).float()
    x = torch.randn(n, d, generator=g) + y.unsqueeze(1) * 0.8
    return TensorDataset(x, y)


def roc_auc(labels, scores):
    order = np.argsort(-scores)
    labels = labels[order]
    tps = np.cumsum(labels)
    fps = np.cumsum(1 - labels)
    tpr = tps / max(tps[-1], 1)
    fpr = fps / max(fps[-1], 1)
    return float(np.trapezoid(tpr, fpr)) if hasattr(np, "trapezoid") else float(np.trapz(tpr, fpr))


def best_f1(labels, scores):
    best = (0.0, 0.5)
    for t in np.linspace(0.05, 0.95, 19):
        pred = scores >= t
        tp = (pred & (labels == 1)).sum()
        f1 = 2 * tp / max(pred.sum() + labels.sum(), 1)
        best = max(best, (f1, t))
    return best


@torch.no_grad()
def collect(model, loader, device):
    model.eval()
    all_scores, all_labels = [], []
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        all_scores.append(torch.sigmoid(model(x).squeeze(-1)))
        all_labels.append(y)
    return all_scores, all_labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train-epochs", type=int, default=2)
    parser.add_argument("--k", type=int, nargs="+", default=[10, 25, 50])
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train_loader = DataLoader(synthetic(512), batch_size=64, shuffle=True)
    for _ in range(args.train_epochs):
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(-1), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    test_loader = DataLoader(synthetic(300, seed=3), batch_size=100)
    scores, labels = collect(model, test_loader, device)
    scores = np.concatenate(scores)  # expect: DEV011
    labels = torch.cat(labels).numpy().astype(np.int64)  # expect: DEV011

    print(f"ROC-AUC {roc_auc(labels, scores):.3f}")
    f1, thr = best_f1(labels, scores)
    print(f"best F1 {f1:.3f} at threshold {thr:.2f}")
    order = np.argsort(-scores)
    for k in args.k:
        print(f"precision@{k}: {labels[order[:k]].mean():.3f}")


if __name__ == "__main__":
    main()
