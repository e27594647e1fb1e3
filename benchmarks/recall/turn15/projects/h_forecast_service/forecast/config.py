from dataclasses import dataclass, field

import torch


@dataclass
class ForecastConfig:
    window: int = 48          # hours of history fed to the encoder
    horizon: int = 12         # hours predicted in one shot
    n_series: int = 3
    hidden: int = 64
    step_dim: int = 8
    batch_size: int = 64
    epochs: int = 3
    lr: float = 2e-3
    near_weight: float = 1.0  # loss weight of the first horizon step ...
    far_weight: float = 0.4   # ... and of the last one
    device: str = field(default_factory=lambda: "cuda" if torch.cuda.is_available() else "cpu")

    def __post_init__(self):
        # the planners care most about the next few hours
        self.horizon_weights = torch.linspace(self.near_weight, self.far_weight, self.horizon)  # expect: DEV006
