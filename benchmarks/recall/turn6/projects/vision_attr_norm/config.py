"""Experiment settings for the defect classifier."""
from dataclasses import dataclass


@dataclass
class TrainConfig:
    image_size: int = 32
    n_classes: int = 3
    batch_size: int = 16
    epochs: int = 2
    lr: float = 1e-3
    device: str = "cuda"  # expect: DEV001
    mean: tuple = (0.485, 0.456, 0.406)
    std: tuple = (0.229, 0.224, 0.225)
