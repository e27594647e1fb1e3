import argparse
from dataclasses import dataclass

import torch


@dataclass
class Config:
    n_items: int = 300
    dim: int = 32
    max_len: int = 12
    negatives: int = 8
    popularity_alpha: float = 0.75
    epochs: int = 2
    batch_size: int = 32
    lr: float = 2e-3
    resume: str = ""
    ckpt: str = "/tmp/x_reckit.pt"
    cpu: bool = False

    @property
    def device(self):
        return torch.device("cuda" if torch.cuda.is_available() and not self.cpu else "cpu")


def from_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--resume", default="")
    p.add_argument("--cpu", action="store_true")
    a = p.parse_args()
    return Config(epochs=a.epochs, resume=a.resume, cpu=a.cpu)
