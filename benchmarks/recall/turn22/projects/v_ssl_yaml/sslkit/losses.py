"""Supervised (class-balanced) and unsupervised (FixMatch) loss terms."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def build_supervised_loss(labels, n_classes, beta=0.99):
    """Class-balanced cross-entropy with effective-number weights (Cui et al.)."""
    counts = torch.bincount(labels, minlength=n_classes).float()
    eff = (1.0 - beta ** counts) / (1.0 - beta)
    weights = 1.0 / eff.clamp_min(1e-6)
    weights = weights / weights.sum() * n_classes
    return nn.CrossEntropyLoss(weight=weights)  # expect: DEV012


def unsupervised_loss(logits_weak, logits_strong, threshold):
    probs = torch.softmax(logits_weak.detach(), dim=-1)
    conf, pseudo = probs.max(dim=-1)
    mask = conf.ge(threshold).float()
    return (F.cross_entropy(logits_strong, pseudo, reduction="none") * mask).mean(), mask.mean()
