"""Settings for the keyword-spotting run (written on the lab GPU box).

Thread: https://github.com/Tencent/NeuralNLP-NeuralClassifier/issues/21
("device": "cuda:1" in train.json: a device fixed in a config file read by the trainer).
"""
from dataclasses import dataclass


@dataclass
class KwsConfig:
    n_mels: int = 20
    n_words: int = 6
    hidden: int = 32
    batch_size: int = 16
    epochs: int = 2
    lr: float = 1e-3
    device: str = "cuda"  # expect: DEV001
