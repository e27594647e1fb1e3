import argparse
from dataclasses import dataclass, fields


@dataclass
class Config:
    num_classes: int = 4
    in_channels: int = 3
    window: int = 64
    width: int = 32
    # activity classes are very unbalanced in the labelled subset
    class_weights: tuple = (0.5, 1.0, 2.0, 4.0)
    label_smoothing: float = 0.05
    n_labeled: int = 256
    n_unlabeled: int = 1024
    batch_size: int = 32
    epochs: int = 3
    lr: float = 1e-3
    ema_decay: float = 0.99
    consistency_weight: float = 5.0
    noise_std: float = 0.15
    seed: int = 0
    cpu: bool = False

    @classmethod
    def from_args(cls, argv=None):
        parser = argparse.ArgumentParser(description="mean teacher")
        for f in fields(cls):
            if f.type is bool or isinstance(f.default, bool):
                parser.add_argument(f"--{f.name.replace('_', '-')}", action="store_true")
            elif isinstance(f.default, tuple):
                parser.add_argument(f"--{f.name.replace('_', '-')}", type=float, nargs="+", default=f.default)
            else:
                parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=f.default)
        ns = parser.parse_args(argv)
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in vars(ns).items()}
        return cls(**values)
