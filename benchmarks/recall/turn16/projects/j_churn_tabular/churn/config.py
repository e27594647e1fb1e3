from dataclasses import dataclass, field
from typing import List, Optional

import torch


def resolve_device(requested: Optional[str] = None) -> torch.device:
    if requested:
        return torch.device(requested)
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


@dataclass
class Config:
    cat_cols: List[str] = field(default_factory=lambda: ["plan", "region", "payment"])
    num_cols: List[str] = field(default_factory=lambda: ["tenure", "monthly", "tickets"])
    target: str = "churned"
    emb_dim: int = 6
    hidden: int = 64
    epochs: int = 4
    batch_size: int = 128
    lr: float = 2e-3
    ckpt: str = "churn_best.pt"
    device: Optional[str] = None
