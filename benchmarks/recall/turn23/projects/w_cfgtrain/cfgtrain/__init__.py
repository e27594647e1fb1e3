from .config import Config, load_config, resolve_device
from .models import build_model
from .losses import build_criterion
from .engine import Trainer

__all__ = ["Config", "load_config", "resolve_device", "build_model", "build_criterion", "Trainer"]
