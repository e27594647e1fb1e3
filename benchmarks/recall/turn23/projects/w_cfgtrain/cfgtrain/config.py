from dataclasses import dataclass, field, fields
from typing import List, Optional

import torch
import yaml


@dataclass
class Config:
    arch: str = "decay_gru"
    vocab_size: int = 50
    num_tags: int = 4
    emb_dim: int = 24
    hidden: int = 32
    tau: float = 8.0
    class_weights: List[float] = field(default_factory=lambda: [0.5, 1.0, 2.0, 2.0])
    lr: float = 3e-3
    epochs: int = 2
    batch_size: int = 8
    seq_len: int = 12
    device: Optional[str] = None  # None: pick automatically


def load_config(path=None, **overrides):
    data = {}
    if path:
        with open(path) as fh:
            data = yaml.safe_load(fh) or {}
    data.update({k: v for k, v in overrides.items() if v is not None})
    known = {f.name for f in fields(Config)}
    return Config(**{k: v for k, v in data.items() if k in known})


def resolve_device(cfg: Config) -> torch.device:
    if cfg.device:
        return torch.device(cfg.device)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")
