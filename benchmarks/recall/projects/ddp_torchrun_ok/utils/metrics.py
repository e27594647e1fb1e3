import numpy as np


def per_class_report(confusion):
    """confusion: a (C, C) tensor, rows = truth, on any device."""
    cm = confusion.cpu().numpy().astype(np.float64)
    tp = np.diag(cm)
    precision = tp / np.maximum(cm.sum(axis=0), 1)
    recall = tp / np.maximum(cm.sum(axis=1), 1)
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-9)
    return {"accuracy": float(tp.sum() / max(cm.sum(), 1)),
            "macro_f1": float(f1.mean()),
            "recall": recall.round(3).tolist()}
