"""Validation pass that logs a wandb-style metrics dict and a confusion-matrix figure.

A tiny stand-in `Run` object writes the dicts as JSON lines so the script has no
network dependency; swap in `wandb.init(...)` in the real job.
"""
import json
import os
import tempfile

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

CLASSES = ["cat", "dog", "fox", "owl"]
CLASS_FREQ = [0.55, 0.30, 0.10, 0.05]


class Run:
    def __init__(self, path):
        self.path = path

    def log(self, row, step=None):
        with open(self.path, "a") as fh:
            fh.write(json.dumps({"step": step, **row}) + "\n")


class Classifier(nn.Module):
    def __init__(self, n_classes=len(CLASSES)):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(3, 12, 5, stride=2), nn.ReLU(),
                               nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(48, n_classes))

    def forward(self, x):
        return self.f(x)


def inverse_freq_weights(freq):
    w = torch.tensor([1.0 / f for f in freq])
    return w / w.sum() * len(freq)


@torch.no_grad()
def validate(model, loader, criterion, device, n_classes):
    model.eval()
    cm = torch.zeros(n_classes, n_classes, device=device)
    loss_sum, n = 0.0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        loss_sum += criterion(logits, y).item() * y.numel()
        n += y.numel()
        cm.index_put_((y, logits.argmax(1)), torch.ones_like(y, dtype=cm.dtype), accumulate=True)
    return loss_sum / n, cm


def plot_confusion(cm, path):
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.imshow(cm / cm.sum(1, keepdim=True).clamp(min=1), cmap="Blues")  # expect: DEV011
    ax.set_xticks(range(len(CLASSES)), CLASSES)
    ax.set_yticks(range(len(CLASSES)), CLASSES)
    fig.savefig(path)
    plt.close(fig)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    out = tempfile.mkdtemp()
    run = Run(os.path.join(out, "metrics.jsonl"))
    g = torch.Generator().manual_seed(4)
    val = TensorDataset(torch.randn(64, 3, 20, 20, generator=g),
                        torch.multinomial(torch.tensor(CLASS_FREQ), 64, replacement=True, generator=g))
    loader = DataLoader(val, batch_size=16)

    model = Classifier().to(device)
    criterion = nn.CrossEntropyLoss(weight=inverse_freq_weights(CLASS_FREQ))  # expect: DEV012

    for epoch in range(2):
        val_loss, cm = validate(model, loader, criterion, device, len(CLASSES))
        acc = (cm.diag().sum() / cm.sum()).item()
        run.log({"val/loss": val_loss, "val/acc": acc}, step=epoch)
        plot_confusion(cm, os.path.join(out, f"cm_epoch{epoch}.png"))
        print(f"epoch {epoch}: val_loss={val_loss:.3f} acc={acc:.3f}")
    print("logged to", run.path)


if __name__ == "__main__":
    main()
