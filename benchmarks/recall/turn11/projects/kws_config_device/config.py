"""Settings of the keyword-spotting run; train.py builds one TrainConfig and reads every value
from it.

Threads: https://github.com/tamarott/SinGAN/issues/22 (--cuda argument is apparently being
ignored: the config already says cuda, so the project cannot run on a Mac without a GPU).
"""
from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    keywords: list = field(default_factory=lambda: ["yes", "no", "up", "down", "stop", "go"])
    sample_rate: int = 8000
    n_fft: int = 256
    n_mels: int = 40
    batch_size: int = 32
    epochs: int = 2
    lr: float = 1e-3
    device: str = "cuda"  # expect: DEV001
