from dataclasses import dataclass, field

import torch


def default_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class RunConfig:
    n_features: int = 20
    n_classes: int = 3
    class_counts: tuple = (120, 40, 10)
    steps: int = 20
    batch_size: int = 16
    lr: float = 1e-3
    ema_decay: float = 0.99
    device: torch.device = field(default_factory=default_device)

    @property
    def use_amp(self):
        return self.device.type == "cuda"

    def class_weights(self):
        counts = torch.tensor(self.class_counts, dtype=torch.float32)
        return counts.sum() / (len(counts) * counts)
