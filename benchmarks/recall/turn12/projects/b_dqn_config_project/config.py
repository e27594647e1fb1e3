"""Hyper-parameters of the grid-world DQN, as a dataclass other modules import.

Project b_dqn_config_project, written from DQN device threads ("Not all
tensors on same device", thu-ml/tianshou#589; "Feature/cpu replay buffer",
cpnota/autonomous-learning-library#186): the device is chosen here, once, and
train.py trusts it.
"""
import argparse
from dataclasses import asdict, dataclass, field, fields

import torch


def default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class DQNConfig:
    grid_size: int = 5
    hidden: int = 64
    buffer_size: int = 5000
    batch_size: int = 64
    gamma: float = 0.95
    lr: float = 1e-3
    eps_start: float = 1.0
    eps_end: float = 0.05
    eps_decay: float = 0.995
    total_steps: int = 1500
    learn_start: int = 200
    target_sync: int = 250
    log_every: int = 250
    seed: int = 0
    device: str = field(default_factory=default_device)

    @classmethod
    def from_args(cls, argv=None) -> "DQNConfig":
        parser = argparse.ArgumentParser(description="DQN on a toy grid world")
        for f in fields(cls):
            default = f.default_factory() if callable(f.default_factory) else f.default
            parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(default), default=default)
        return cls(**vars(parser.parse_args(argv)))

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in asdict(self).items())
