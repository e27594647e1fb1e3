"""Settings of the POS-tagger project. The device falls back to the CPU when there is no GPU, so
the same configuration runs on the laptop, in CI and on the cluster.

Thread: https://github.com/ESA-PhiLab/floatingobjects/pull/5 (update code to be able to use the
CPU: a GPU is selected if available, otherwise the CPU).
"""
from dataclasses import dataclass, field

import torch


def default_device():
    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class TaggerConfig:
    vocab_size: int = 500
    num_tags: int = 6
    pad_id: int = 0
    pad_tag: int = -100
    emb_dim: int = 64
    hidden: int = 64
    batch_size: int = 16
    epochs: int = 3
    lr: float = 2e-3
    device: str = field(default_factory=default_device)
