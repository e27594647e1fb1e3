from dataclasses import dataclass, field

import torch


@dataclass
class GenConfig:
    vocab: str = "abcdefghijklmnopqrstuvwxyz .,\n"
    context: int = 32
    d_model: int = 48
    n_heads: int = 4
    n_layers: int = 2
    temperature: float = 0.9
    top_k: int = 8
    max_new_tokens: int = 40
    banned: tuple = ("\n",)
    train_steps: int = 60
    lr: float = 3e-3
    extra: dict = field(default_factory=dict)


def pick_device(prefer_gpu=True):
    if prefer_gpu and torch.cuda.is_available():
        return torch.device("cuda")
    if prefer_gpu and getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")
