from dataclasses import dataclass, field
from typing import List


@dataclass
class ModelConfig:
    hidden: int = 32
    num_layers: int = 3
    dropout: float = 0.1


@dataclass
class TrainConfig:
    epochs: int = 5
    batch_size: int = 8
    lr: float = 1e-3
    num_graphs: int = 64
    num_features: int = 7
    num_classes: int = 2
    device: str = "cuda:0"  # expect: DEV001
    seeds: List[int] = field(default_factory=lambda: [0])
    model: ModelConfig = field(default_factory=ModelConfig)
