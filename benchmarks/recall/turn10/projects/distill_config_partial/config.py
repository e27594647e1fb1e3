"""Run configuration for the distillation project, shared by train.py and the evaluation scripts.

Thread: https://github.com/YosefLab/scVI-dev/issues/40 (it should be possible to run without
CUDA; the device was fixed in the configuration).
"""
from dataclasses import dataclass


@dataclass
class DistillConfig:
    vocab_size: int = 2000
    max_len: int = 48
    num_labels: int = 4
    pad_id: int = 0
    batch_size: int = 32
    epochs: int = 3
    lr: float = 5e-4
    temperature: float = 2.0
    alpha: float = 0.5
    device: str = "cuda"  # expect: DEV001
