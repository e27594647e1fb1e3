from dataclasses import dataclass, field


@dataclass
class GenConfig:
    block_size: int = 48
    d_model: int = 64
    n_head: int = 4
    n_layer: int = 2
    dropout: float = 0.0
    lr: float = 3e-3
    train_steps: int = 120
    batch_size: int = 32
    device: str = "auto"          # "auto", "cpu", "cuda", "cuda:N"
    temperature: float = 0.9
    final_temperature: float = 0.6
    top_k: int = 8
    banned_chars: list = field(default_factory=lambda: ["#", "@"])
