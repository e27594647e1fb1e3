from dataclasses import dataclass, field
from typing import List

import torch


@dataclass
class ScoringConfig:
    checkpoint: str = ""
    vocab_size: int = 300
    dim: int = 32
    max_len: int = 48
    labels: List[str] = field(default_factory=lambda: ["bug", "billing", "feature", "question"])
    batch_size: int = 16
    force_cpu: bool = False


def pick_device(cfg: ScoringConfig) -> torch.device:
    """The nightly job runs on the GPU box; analysts run it on their laptops."""
    if torch.cuda.is_available() and not cfg.force_cpu:
        return torch.device("cuda")
    return torch.device("cpu")
