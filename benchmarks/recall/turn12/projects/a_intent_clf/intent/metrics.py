"""Evaluation metrics for the intent classifier.

Written from "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu()
to copy the tensor to host memory first" reports on metric helpers: this module
assumes it is handed CPU tensors, but train.py passes it the model's logits as
they come off the device.
"""
import numpy as np
from sklearn.metrics import confusion_matrix, f1_score


def intent_report(logits, labels, n_intents):
    """Macro-F1 and per-intent recall from raw logits and integer labels."""
    macro_f1 = f1_score(labels.numpy(), logits.argmax(dim=-1).numpy(), average="macro")  # expect: DEV011
    return {"macro_f1": round(float(macro_f1), 4)}


def per_intent_recall(preds, labels, n_intents):
    """Recall per intent from NumPy arrays (NaN for intents absent from `labels`)."""
    preds, labels = np.asarray(preds), np.asarray(labels)
    recall = np.full(n_intents, np.nan)
    for c in range(n_intents):
        hit = labels == c
        if hit.any():
            recall[c] = float((preds[hit] == c).mean())
    return recall


def confusion(preds, labels, n_intents):
    """Rows are true intents, columns predicted ones (NumPy inputs)."""
    return confusion_matrix(np.asarray(labels), np.asarray(preds), labels=list(range(n_intents)))


def format_report(report, recall=None, names=None):
    """Human-readable summary for the training log."""
    lines = [f"macro-F1 {report['macro_f1']:.3f}"]
    if recall is not None:
        names = names or [f"intent{i}" for i in range(len(recall))]
        lines += [f"  {n:<10s} recall {r:.2f}" for n, r in zip(names, recall) if not np.isnan(r)]
    return "\n".join(lines)
