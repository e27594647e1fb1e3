"""Sample statistics, computed in NumPy on host copies."""
import numpy as np
import torch


def discriminator_confidence(d_logits):
    return float(np.mean(torch.sigmoid(d_logits).detach().cpu().numpy()))


def per_class_means(samples, labels, n_classes):
    xs, ys = samples.detach().cpu().numpy(), labels.cpu().numpy()
    return [[round(float(v), 2) for v in xs[ys == c].mean(axis=0)] for c in range(n_classes) if (ys == c).any()]
