"""Loss built from the class counts of the config."""
import torch
import torch.nn as nn


class WeightedCE(nn.Module):
    def __init__(self, weights, label_smoothing):
        super().__init__()
        self.register_buffer("weights", weights)
        self.label_smoothing = label_smoothing

    def forward(self, logits, target):
        return nn.functional.cross_entropy(logits, target, weight=self.weights,
                                           label_smoothing=self.label_smoothing)


def build_criterion(cfg):
    counts = torch.tensor(cfg.class_counts, dtype=torch.float32)
    weights = counts.sum() / (len(counts) * counts)
    return WeightedCE(weights, cfg.label_smoothing)
