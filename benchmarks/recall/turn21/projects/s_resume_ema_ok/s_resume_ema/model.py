import torch.nn as nn


def build_model(cfg):
    return nn.Sequential(
        nn.Linear(cfg.n_features, 64), nn.GELU(), nn.Dropout(0.1),
        nn.Linear(64, 64), nn.GELU(), nn.Linear(64, cfg.n_classes))
