import argparse
from dataclasses import dataclass

import torch


@dataclass
class Config:
    nodes: int = 400
    feat_dim: int = 24
    hidden: int = 48
    out_dim: int = 32
    classes: int = 4
    epochs: int = 30
    lr: float = 5e-3
    tau: float = 0.5
    drop_edge: float = 0.3
    mask_feat: float = 0.2
    device: str = "auto"


def parse_config(argv=None):
    ap = argparse.ArgumentParser()
    for name, value in Config().__dict__.items():
        ap.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    return Config(**vars(ap.parse_args(argv)))


def resolve_device(name):
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)
