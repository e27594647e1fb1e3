"""Confusion matrix and mean IoU for the segmentation project, computed with NumPy.

Thread: https://github.com/JDAI-CV/fast-reid/pull/509 (TypeError: can't convert cuda:0 device type
tensor to numpy in an evaluation helper).
"""
import numpy as np


def confusion_matrix(logits, target, num_classes):
    pred = logits.argmax(1).numpy().ravel()  # expect: DEV011
    true = target.cpu().numpy().ravel()
    return np.bincount(true * num_classes + pred, minlength=num_classes ** 2).reshape(num_classes, num_classes)


def mean_iou(cm):
    inter = np.diag(cm)
    union = cm.sum(0) + cm.sum(1) - inter
    return float(np.mean(inter / np.maximum(union, 1)))
