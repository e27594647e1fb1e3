"""Per-class recall, the number people look at on long-tailed data."""
import numpy as np


def per_class_recall(preds, targets, n_classes):
    p = preds.numpy()  # expect: DEV011
    t = targets.numpy()  # also: DEV011
    hits = np.bincount(t[p == t], minlength=n_classes)
    support = np.bincount(t, minlength=n_classes)
    return hits / np.maximum(support, 1)
