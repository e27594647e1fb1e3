"""Settings for the tagger, device chosen with a fallback. Correct look-alike of kws_config_device."""
from dataclasses import dataclass, field

import torch


@dataclass
class TagConfig:
    vocab: int = 300
    dim: int = 32
    n_tags: int = 5
    device: str = field(default_factory=lambda: "cuda" if torch.cuda.is_available() else "cpu")
