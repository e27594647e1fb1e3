import torch
import torch.nn as nn


def build_loss(cfg):
    """Pointwise BCE with the rare positives up-weighted."""
    pos_weight = torch.tensor([cfg.pos_weight])
    return nn.BCEWithLogitsLoss(pos_weight=pos_weight)  # expect: DEV012
