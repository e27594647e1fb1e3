from .config import TrainConfig, resolve_device
from .model import TinyUNet

__all__ = ["TinyUNet", "TrainConfig", "resolve_device"]
