import argparse
from dataclasses import dataclass, fields

import torch


@dataclass
class TrainConfig:
    block_size: int = 32
    n_layer: int = 2
    n_head: int = 4
    n_embd: int = 64
    dropout: float = 0.1
    batch_size: int = 16
    max_iters: int = 60
    eval_interval: int = 20
    lr: float = 3e-3
    out_dir: str = "out-lm"
    resume: bool = False
    device: str = "cuda" if torch.cuda.is_available() else "cpu"
    sample_len: int = 60
    temperature: float = 0.8

    @classmethod
    def from_args(cls, argv=None):
        p = argparse.ArgumentParser()
        for f in fields(cls):
            if f.type is bool or f.type == "bool":
                p.add_argument(f"--{f.name}", action="store_true", default=f.default)
            else:
                p.add_argument(f"--{f.name}", type=type(f.default), default=f.default)
        return cls(**vars(p.parse_args(argv)))
