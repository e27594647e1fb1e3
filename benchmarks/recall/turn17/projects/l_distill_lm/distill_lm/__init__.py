"""Logit + hidden-state distillation for small GRU language models."""

from .config import DistillConfig

__all__ = ["DistillConfig"]
__version__ = "0.1.0"
