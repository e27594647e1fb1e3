"""Character-level transformer language model."""
from .config import TrainConfig
from .model import CharTransformer

__all__ = ["TrainConfig", "CharTransformer"]
