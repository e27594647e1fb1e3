from dataclasses import dataclass

import torch


@dataclass
class GenConfig:
    vocab_size: int = 40
    d_model: int = 48
    n_layers: int = 2
    n_heads: int = 4
    block_size: int = 24
    batch_size: int = 16
    steps: int = 25
    lr: float = 3e-3
    max_new_tokens: int = 20
    temperature: float = 0.9
    repetition_penalty: float = 1.3
    device: str = "cuda" if torch.cuda.is_available() else "cpu"
