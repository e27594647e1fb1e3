from dataclasses import dataclass


@dataclass
class TrainConfig:
    vocab_size: int = 320
    d_model: int = 64
    n_head: int = 4
    n_layer: int = 2
    max_len: int = 64
    lr: float = 3e-4
    batch_size: int = 8
    epochs: int = 2
    device: str = "cuda"  # expect: DEV001
    log_every: int = 4
