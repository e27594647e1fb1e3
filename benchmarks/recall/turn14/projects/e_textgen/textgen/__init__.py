from .config import GenConfig
from .model import CharTransformer

__all__ = ["GenConfig", "CharTransformer"]
