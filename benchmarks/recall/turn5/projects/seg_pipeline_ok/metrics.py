"""Confusion-matrix metrics computed on the host."""
import numpy as np
import torch


def confusion(pred, target, classes, ignore_index):
    pred, target = pred.cpu().numpy().ravel(), target.cpu().numpy().ravel()
    keep = target != ignore_index
    return np.bincount(classes * target[keep] + pred[keep], minlength=classes ** 2).reshape(classes, classes)


def miou(cm):
    inter = np.diag(cm)
    union = cm.sum(0) + cm.sum(1) - inter
    return float(np.nanmean(inter / np.maximum(union, 1)))


def class_weights(masks, classes, ignore_index):
    counts = torch.bincount(masks[masks != ignore_index].flatten(), minlength=classes).float()
    return counts.sum() / (classes * counts.clamp(min=1))
