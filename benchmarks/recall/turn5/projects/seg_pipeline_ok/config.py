"""Configuration for the segmentation pipeline; the device falls back to the CPU."""
from dataclasses import dataclass, field

import torch


@dataclass
class SegConfig:
    classes: int = 4
    image_size: int = 64
    batch_size: int = 16
    epochs: int = 3
    ignore_index: int = 255
    device: torch.device = field(default_factory=lambda: torch.device("cuda" if torch.cuda.is_available() else "cpu"))
