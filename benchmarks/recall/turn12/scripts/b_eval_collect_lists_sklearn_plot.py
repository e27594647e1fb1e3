"""Binary classifier evaluation: collect outputs per batch, convert at the end.

Written from "Add dot cpu method for the variable 'outputs'" (motefly/DeepGBM#4,
np.concatenate over a list of CUDA predictions), "TypeError: can't convert CUDA
tensor to numpy" in an ROC evaluation (samet-akcay/ganomaly#26) and "Can't
convert cuda tensor to numpy" from plt.imshow (thanard/causal-infogan#3): the
probabilities are appended while still on the GPU, and a confusion matrix built
on the device is handed to matplotlib.
"""
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import roc_auc_score
from torch.utils.data import DataLoader, TensorDataset


def make_data(n=1200, d=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, generator=g)
    y = ((x @ w + 0.5 * torch.randn(n, generator=g)) > 0).long()
    return TensorDataset(x, y)


def confusion_matrix(preds, targets, num_classes, device):
    idx = targets.to(device) * num_classes + preds.to(device)
    return torch.bincount(idx, minlength=num_classes ** 2).reshape(num_classes, num_classes)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    all_probs, all_preds, all_targets = [], [], []
    for xb, yb in loader:
        xb = xb.to(device)
        probs = model(xb).softmax(dim=1)
        all_probs.append(probs[:, 1])
        all_preds.append(probs.argmax(dim=1).cpu())
        all_targets.append(yb)
    probs = np.concatenate(all_probs)  # expect: DEV011
    return probs, torch.cat(all_preds), torch.cat(all_targets)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(make_data(seed=0), batch_size=64, shuffle=True)
    val_loader = DataLoader(make_data(400, seed=1), batch_size=128)

    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(5):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    probs, preds, targets = evaluate(model, val_loader, device)
    auc = roc_auc_score(targets.numpy(), probs)
    acc = (preds == targets).float().mean().item()
    print(f"val AUC {auc:.3f} accuracy {acc:.3f}")

    cm = confusion_matrix(preds, targets, 2, device)
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.imshow(cm, cmap="Blues")  # expect: DEV011
    ax.set_xlabel("predicted")
    ax.set_ylabel("true")
    fig.savefig(os.path.join(tempfile.gettempdir(), "confusion.png"))


if __name__ == "__main__":
    main()
