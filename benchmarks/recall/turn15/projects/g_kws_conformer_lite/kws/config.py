from dataclasses import dataclass, field
from typing import List

KEYWORDS = ["yes", "no", "stop", "go", "_silence_", "_unknown_"]


@dataclass
class KWSConfig:
    sample_rate: int = 16000
    n_fft: int = 512
    hop: int = 160
    n_mels: int = 40
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    max_frames: int = 128
    epochs: int = 2
    batch_size: int = 16
    lr: float = 1e-3
    ema_decay: float = 0.99
    # "_unknown_" dominates the recordings, so it is down-weighted
    class_weights: List[float] = field(default_factory=lambda: [1.0, 1.0, 1.0, 1.0, 0.8, 0.3])
    resume: str = ""
    ckpt: str = "kws_last.pt"
