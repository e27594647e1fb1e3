"""Per-class recall on host copies of the predictions."""
import numpy as np
import torch


@torch.no_grad()
def per_class_recall(model, loader, device, n_classes):
    preds, targets = [], []
    for xb, yb in loader:
        preds.append(model(xb.to(device), adjust=True).argmax(-1).cpu())
        targets.append(yb)
    p = torch.cat(preds).numpy()
    t = torch.cat(targets).numpy()
    hits = np.bincount(t[p == t], minlength=n_classes)
    return hits / np.maximum(np.bincount(t, minlength=n_classes), 1)
