from .config import load_config, resolve_device
from .ema import EMATeacher
from .losses import build_supervised_loss, unsupervised_loss
from .metrics import per_class_recall
from .model import LogitAdjustedNet

__all__ = ["load_config", "resolve_device", "EMATeacher", "build_supervised_loss", "unsupervised_loss",
           "per_class_recall", "LogitAdjustedNet"]
