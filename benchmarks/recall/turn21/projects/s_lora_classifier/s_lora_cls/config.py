from dataclasses import dataclass, field

import torch


def pick_device() -> torch.device:
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class TrainConfig:
    vocab_size: int = 128
    d_model: int = 32
    n_layers: int = 2
    n_heads: int = 4
    num_labels: int = 4
    lora_rank: int = 4
    lora_alpha: float = 8.0
    lora_targets: tuple = ("query", "value")
    epochs: int = 3
    lr: float = 2e-3
    batch_size: int = 8
    seed: int = 0
    device: torch.device = field(default_factory=pick_device)
