"""asrkit: a compact CTC recogniser used for keyword transcripts."""
from .config import TrainConfig, resolve_device

__all__ = ["TrainConfig", "resolve_device"]
