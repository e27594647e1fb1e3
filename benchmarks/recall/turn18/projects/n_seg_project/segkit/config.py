from dataclasses import dataclass, field
from typing import List


@dataclass
class TrainConfig:
    num_classes: int = 4
    ignore_index: int = 255
    class_weights: List[float] = field(default_factory=lambda: [0.5, 1.0, 2.0, 4.0])
    pixel_mean: List[float] = field(default_factory=lambda: [0.485, 0.456, 0.406])
    pixel_std: List[float] = field(default_factory=lambda: [0.229, 0.224, 0.225])
    dice_weight: float = 0.5
    lr: float = 1e-3
    epochs: int = 2
    batch_size: int = 4
    device: str = "auto"

    def resolve_device(self):
        import torch
        if self.device == "auto":
            return torch.device("cuda" if torch.cuda.is_available() else "cpu")
        return torch.device(self.device)
