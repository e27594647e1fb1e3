"""Run configuration: device, data shape and class balancing for the coastline model."""
from dataclasses import dataclass, field

import torch


@dataclass
class Config:
    bands: int = 4
    tile: int = 32
    n_classes: int = 3          # water, land, surf
    epochs: int = 2
    batch_size: int = 8
    lr: float = 1e-3
    class_pixel_share: tuple = (0.62, 0.33, 0.05)
    device: torch.device = field(
        default_factory=lambda: torch.device("cuda" if torch.cuda.is_available() else "cpu")
    )

    @property
    def class_weights(self):
        share = torch.tensor(self.class_pixel_share)
        w = 1.0 / share
        return w / w.sum() * self.n_classes
