"""kdkit: small knowledge-distillation toolkit."""
from .config import DistillConfig
from .ema import ModelEMA

__all__ = ["DistillConfig", "ModelEMA"]
