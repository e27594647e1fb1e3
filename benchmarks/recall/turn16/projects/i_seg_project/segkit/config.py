from dataclasses import dataclass, field
from typing import List, Optional

import torch


@dataclass
class TrainConfig:
    classes: List[str] = field(default_factory=lambda: ["background", "road", "building", "tree"])
    class_weights: List[float] = field(default_factory=lambda: [0.3, 1.0, 1.2, 1.5])
    ignore_index: int = 255
    image_size: int = 64
    batch_size: int = 8
    epochs: int = 3
    lr: float = 2e-3
    device: Optional[str] = None
    resume: str = ""
    out_dir: str = ""

    @property
    def num_classes(self) -> int:
        return len(self.classes)


def resolve_device(preferred: Optional[str] = None) -> torch.device:
    if preferred:
        dev = torch.device(preferred)
        if dev.type == "cuda" and not torch.cuda.is_available():
            print(f"{preferred} requested but CUDA is not available, using the CPU")
            return torch.device("cpu")
        return dev
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")
