"""End-of-epoch validation report: per-class F1, confusion matrix image, logged to W&B when available."""
import argparse

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

try:
    import wandb
except ImportError:  # offline runs
    wandb = None

CLASSES = ["cat", "dog", "bird", "fish"]


class AttnPoolNet(nn.Module):
    def __init__(self, d_in=10, n_classes=len(CLASSES)):
        super().__init__()
        self.enc = nn.Linear(d_in, 32)
        self.score = nn.Linear(32, 1)
        self.cls = nn.Linear(32, n_classes)

    def forward(self, x):  # x: (B, T, d_in)
        h = torch.tanh(self.enc(x))
        attn = self.score(h).squeeze(-1).softmax(dim=1)
        pooled = (attn.unsqueeze(-1) * h).sum(1)
        return self.cls(pooled), attn


def f1_per_class(y_true, y_pred, n):
    out = []
    for c in range(n):
        tp = np.sum((y_pred == c) & (y_true == c))
        fp = np.sum((y_pred == c) & (y_true != c))
        fn = np.sum((y_pred != c) & (y_true == c))
        out.append(2 * tp / max(2 * tp + fp + fn, 1))
    return np.array(out)


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    all_logits, all_labels, losses = [], [], []
    first_attn = None
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits, attn = model(x)
        losses.append(F.cross_entropy(logits, y).item())
        all_logits.append(logits.detach().cpu())
        all_labels.append(y.cpu())
        if first_attn is None:
            first_attn = attn[:8].cpu()
    logits = torch.cat(all_logits)
    labels = torch.cat(all_labels).numpy()
    preds = logits.argmax(1).numpy()
    cm = np.zeros((len(CLASSES),) * 2, dtype=int)
    np.add.at(cm, (labels, preds), 1)
    return {
        "val/loss": float(np.mean(losses)),
        "val/acc": float((preds == labels).mean()),
        "val/f1": f1_per_class(labels, preds, len(CLASSES)),
        "cm": cm,
        "attn": first_attn.numpy(),
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--wandb", action="store_true")
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(256, 12, 10)
    y = torch.randint(0, len(CLASSES), (256,))
    loader = DataLoader(TensorDataset(x, y), batch_size=64)
    model = AttnPoolNet().to(device)
    report = validate(model, loader, device)

    fig, axes = plt.subplots(1, 2, figsize=(9, 4))
    axes[0].imshow(report["cm"], cmap="Blues")
    axes[0].set_xticks(range(len(CLASSES)), CLASSES)
    axes[1].imshow(report["attn"], aspect="auto")
    fig.savefig("/tmp/val_report.png")

    if args.wandb and wandb is not None:
        wandb.init(project="attn-pool")
        wandb.log({"val/loss": report["val/loss"], "val/acc": report["val/acc"],
                   **{f"val/f1_{c}": f for c, f in zip(CLASSES, report["val/f1"])},
                   "val/cm": wandb.Image(fig)})
    print({k: v for k, v in report.items() if k.startswith("val/")})


if __name__ == "__main__":
    main()
