"""Per-timestep activity tagging of accelerometer windows."""
from .config import Config, get_device

__all__ = ["Config", "get_device"]
