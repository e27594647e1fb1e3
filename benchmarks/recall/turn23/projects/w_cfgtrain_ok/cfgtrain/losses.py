import torch
import torch.nn as nn


class TokenLoss(nn.Module):
    """Cross-entropy over (batch, time, tags) logits, ignoring padded positions."""

    def __init__(self, criterion):
        super().__init__()
        self.criterion = criterion

    def forward(self, logits, tags):
        return self.criterion(logits.reshape(-1, logits.size(-1)), tags.reshape(-1))


def build_criterion(cfg):
    if cfg.class_weights:
        criterion = nn.CrossEntropyLoss(weight=torch.tensor(cfg.class_weights), ignore_index=-100)
    else:
        criterion = nn.CrossEntropyLoss(ignore_index=-100)
    return criterion
