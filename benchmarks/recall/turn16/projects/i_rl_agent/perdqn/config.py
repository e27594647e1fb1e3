from dataclasses import dataclass, field

import torch


def _default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class Config:
    total_steps: int = 1500
    batch_size: int = 32
    buffer_size: int = 5000
    gamma: float = 0.98
    lr: float = 1e-3
    target_every: int = 200
    learning_starts: int = 100
    alpha: float = 0.6          # priority exponent
    beta_start: float = 0.4     # importance-sampling exponent, annealed to 1
    eps_decay_steps: int = 800
    eval_episodes: int = 5
    resume: str = ""
    save_path: str = ""
    device: str = field(default_factory=_default_device)
