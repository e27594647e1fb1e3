from dataclasses import dataclass


@dataclass
class Config:
    corridor_length: int = 7
    hidden: int = 64
    lr: float = 1e-3
    gamma: float = 0.95
    batch_size: int = 32
    buffer_size: int = 5000
    total_steps: int = 1500
    learn_start: int = 200
    target_sync: int = 100
    eval_every: int = 500
    eps_start: float = 1.0
    eps_end: float = 0.05
    seed: int = 0
    device: str = "cuda"  # expect: DEV001
