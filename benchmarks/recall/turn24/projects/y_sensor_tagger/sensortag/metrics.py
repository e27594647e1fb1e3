import numpy as np


def per_class_f1(logits, labels, n_classes):
    """Per-class F1 over all timesteps of an epoch's stacked logits (B, T, C) and labels (B, T)."""
    pred = logits.argmax(-1).flatten().numpy()  # expect: DEV011
    gold = labels.flatten().numpy()  # expect: DEV011
    f1 = np.zeros(n_classes)
    for c in range(n_classes):
        tp = np.sum((pred == c) & (gold == c))
        fp = np.sum((pred == c) & (gold != c))
        fn = np.sum((pred != c) & (gold == c))
        f1[c] = 2 * tp / max(2 * tp + fp + fn, 1)
    return f1


def format_report(f1, names):
    return "  ".join(f"{n}={v:.2f}" for n, v in zip(names, f1)) + f"  macro={f1.mean():.2f}"
