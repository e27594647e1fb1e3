"""Train a small classifier, then evaluate: collect per-batch outputs, concatenate, score with sklearn."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

try:
    from sklearn.metrics import confusion_matrix, roc_auc_score
except ImportError:  # keep the script usable without scikit-learn
    def confusion_matrix(y_true, y_pred):
        k = int(max(y_true.max(), y_pred.max())) + 1
        cm = np.zeros((k, k), dtype=np.int64)
        np.add.at(cm, (y_true, y_pred), 1)
        return cm

    def roc_auc_score(y_true, scores, multi_class="ovr"):
        return float("nan")


def make_data(n, d=12, k=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, k, (n,), generator=g)
    x = torch.randn(n, d, generator=g) + y[:, None].float()
    return TensorDataset(x, y)


def evaluate(model, loader, criterion, device):
    model.eval()
    all_probs, all_labels, total_loss = [], [], 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            total_loss += criterion(logits, y).item() * x.size(0)
            all_probs.append(logits.softmax(dim=1).cpu())
            all_labels.append(y.cpu())
    probs = torch.cat(all_probs).numpy()
    labels = torch.cat(all_labels).numpy()
    preds = probs.argmax(axis=1)
    return {
        "loss": total_loss / len(loader.dataset),
        "acc": float((preds == labels).mean()),
        "auc": roc_auc_score(labels, probs, multi_class="ovr"),
        "cm": confusion_matrix(labels, preds),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    train_loader = DataLoader(make_data(512), batch_size=64, shuffle=True)
    val_loader = DataLoader(make_data(128, seed=1), batch_size=64)
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        metrics = evaluate(model, val_loader, criterion, device)
        print(f"epoch {epoch} val loss {metrics['loss']:.3f} acc {metrics['acc']:.3f} auc {metrics['auc']:.3f}")
    print(metrics["cm"])


if __name__ == "__main__":
    main()
