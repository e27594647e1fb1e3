"""Train a small classifier, then evaluate: collect probabilities and labels per batch,
concatenate them and hand them to scikit-learn (ROC-AUC, confusion matrix, report)."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.metrics import classification_report, confusion_matrix, roc_auc_score
from torch.utils.data import DataLoader, TensorDataset

NUM_CLASSES = 4


def make_loaders(n=512, dim=20, batch_size=64):
    rng = np.random.default_rng(0)
    centers = rng.normal(0, 2, size=(NUM_CLASSES, dim))
    y = rng.integers(0, NUM_CLASSES, size=n)
    x = centers[y] + rng.normal(size=(n, dim))
    ds = TensorDataset(torch.from_numpy(x).float(), torch.from_numpy(y).long())
    train, val = torch.utils.data.random_split(ds, [n - 128, 128])
    return (DataLoader(train, batch_size=batch_size, shuffle=True),
            DataLoader(val, batch_size=batch_size))


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    all_probs, all_labels = [], []
    total_loss, count = 0.0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        total_loss += F.cross_entropy(logits, y, reduction="sum").item()
        count += y.size(0)
        all_probs.append(logits.softmax(dim=1).cpu())
        all_labels.append(y.cpu())
    y_true = torch.cat(all_labels).numpy()
    y_prob = torch.cat(all_probs).numpy()
    y_pred = y_prob.argmax(axis=1)
    return {
        "loss": total_loss / count,
        "auc": roc_auc_score(y_true, y_prob, multi_class="ovr"),
        "cm": confusion_matrix(y_true, y_pred, labels=list(range(NUM_CLASSES))),
        "report": classification_report(y_true, y_pred, zero_division=0),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    device = torch.device(args.device)

    train_loader, val_loader = make_loaders()
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, NUM_CLASSES)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        metrics = evaluate(model, val_loader, device)
        print(f"epoch {epoch} val loss {metrics['loss']:.3f} auc {metrics['auc']:.3f}")
    print(metrics["cm"])
    print(metrics["report"])


if __name__ == "__main__":
    main()
