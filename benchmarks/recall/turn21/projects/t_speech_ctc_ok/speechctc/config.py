from dataclasses import dataclass

import torch

ALPHABET = ["<b>"] + list("abcdefghij '")
BLANK = 0


@dataclass
class TrainConfig:
    n_mels: int = 40
    hidden: int = 64
    batch_size: int = 8
    epochs: int = 2
    lr: float = 2e-3
    device: str = "cuda" if torch.cuda.is_available() else "cpu"
