"""Multiclass validation loop with per-epoch wandb logging (correct look-alike).

Written from "[Feature] make histograms work with cuda tensors" (wandb/wandb#2946),
"Cuda tensors in Logging (visualization)" (RomanovMikeV/setka#13) and
"[PyTorch] Kaggle Dog Explicitly move to cpu before plotting"
(d2l-ai/d2l-en#1966): outputs are detached and copied to the host before they
are collected, scalars are logged with .item(), and only NumPy arrays reach
sklearn, matplotlib and wandb.
"""
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

try:
    import wandb
except ImportError:  # keep the script runnable without wandb
    wandb = None


def log(metrics, step):
    if wandb is not None and wandb.run is not None:
        wandb.log(metrics, step=step)
    else:
        print(step, {k: v for k, v in metrics.items() if isinstance(v, float)})


def batches(n, num_classes=4, batch_size=50, seed=0):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(num_classes, 6, generator=g) * 2
    for _ in range(n // batch_size):
        y = torch.randint(0, num_classes, (batch_size,), generator=g)
        yield centers[y] + torch.randn(batch_size, 6, generator=g), y


@torch.no_grad()
def validate(model, device):
    model.eval()
    losses, probs, labels = [], [], []
    for x, y in batches(400, seed=123):
        x, y = x.to(device), y.to(device)
        logits = model(x)
        losses.append(F.cross_entropy(logits, y, reduction="sum").item())
        probs.append(logits.softmax(dim=1).detach().cpu())
        labels.append(y.cpu())
    probs = np.concatenate([p.numpy() for p in probs])
    labels = torch.cat(labels).numpy()
    return sum(losses) / len(labels), probs, labels


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if wandb is not None:
        wandb.init(project="eval-demo", mode="disabled")
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    for epoch in range(4):
        model.train()
        for x, y in batches(1000, seed=epoch):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        val_loss, probs, labels = validate(model, device)
        preds = probs.argmax(axis=1)
        log({
            "train/loss": loss.item(),
            "val/loss": float(val_loss),
            "val/macro_f1": float(f1_score(labels, preds, average="macro")),
            "val/confidence": probs.max(axis=1),
        }, step=epoch)

    cm = confusion_matrix(labels, preds)
    weight = model[0].weight.detach().cpu().numpy()
    fig, axes = plt.subplots(1, 2, figsize=(6, 3))
    axes[0].imshow(cm, cmap="Blues")
    axes[1].hist(weight.ravel(), bins=30)
    fig.savefig(os.path.join(tempfile.gettempdir(), "val_report.png"))


if __name__ == "__main__":
    main()
