"""Loss built from the class counts of the config."""
import torch
import torch.nn as nn


def build_criterion(cfg):
    counts = torch.tensor(cfg.class_counts, dtype=torch.float32)
    weights = counts.sum() / (len(counts) * counts)
    return nn.CrossEntropyLoss(weight=weights, label_smoothing=cfg.label_smoothing)  # expect: DEV012
