"""Run configuration for the load forecaster."""
from dataclasses import dataclass, field

import torch


@dataclass
class ForecastConfig:
    window: int = 48
    horizon: int = 12
    hidden: int = 64
    epochs: int = 3
    lr: float = 2e-3
    device: torch.device = field(
        default_factory=lambda: torch.device("cuda" if torch.cuda.is_available() else "cpu"))
