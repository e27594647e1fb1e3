"""Reporting helpers of the keyword-spotting run: accuracy and a confusion matrix printed as a
table.

Thread: https://github.com/BindsNET/bindsnet/issues/382 (confusion matrices with scikit-learn run
on the CPU but fail once the predictions come from the GPU).
"""
import numpy as np
from sklearn.metrics import confusion_matrix


def accuracy(preds, targets):
    return (preds == targets).float().mean().item()


def log_confusion(preds, targets, keywords):
    cm = confusion_matrix(targets.numpy(), preds.numpy(), labels=list(range(len(keywords))))  # expect: DEV011
    width = max(len(k) for k in keywords) + 1
    print(" " * width + " ".join(f"{k:>{width}}" for k in keywords))
    for name, row in zip(keywords, cm):
        print(f"{name:>{width}} " + " ".join(f"{v:>{width}}" for v in row))
    return np.trace(cm) / max(cm.sum(), 1)
