from .config import Config, resolve_device
from .model import Seq2SeqForecaster

__all__ = ["Config", "resolve_device", "Seq2SeqForecaster"]
