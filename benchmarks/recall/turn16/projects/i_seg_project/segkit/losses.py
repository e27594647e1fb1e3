import torch
import torch.nn as nn


def build_criterion(cfg, device):
    weight = torch.tensor(cfg.class_weights, dtype=torch.float32, device=device)
    return nn.CrossEntropyLoss(weight=weight, ignore_index=cfg.ignore_index)
