from dataclasses import dataclass


@dataclass
class TrainConfig:
    vocab_size: int = 40
    hidden: int = 64
    label_smoothing: float = 0.1
    lr: float = 3e-3
    epochs: int = 2
    batch_size: int = 16
    max_len: int = 10
