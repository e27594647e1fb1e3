from dataclasses import dataclass, field


@dataclass
class ForecastConfig:
    lookback: int = 72
    horizon: int = 24
    n_features: int = 4
    target_index: int = 0
    hidden: int = 64
    layers: int = 2
    dropout: float = 0.1
    batch_size: int = 64
    epochs: int = 3
    lr: float = 1e-3
    teacher_forcing: float = 0.5
    tf_decay: float = 0.15
    device: str = "cuda"  # expect: DEV001
    seed: int = 7
    splits: tuple = field(default=(0.7, 0.15, 0.15))
