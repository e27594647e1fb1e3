import os
import tempfile
from dataclasses import dataclass, field

import torch


def default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class ExperimentConfig:
    n_nodes: int = 300
    n_classes: int = 4
    n_feats: int = 32
    hidden: int = 32
    heads: int = 4
    n_layers: int = 2
    dropout: float = 0.3
    lr: float = 5e-3
    weight_decay: float = 5e-4
    epochs: int = 60
    seed: int = 0
    device: str = field(default_factory=default_device)
    checkpoint: str = field(default_factory=lambda: os.path.join(tempfile.gettempdir(), "gnnnode_best.pt"))
