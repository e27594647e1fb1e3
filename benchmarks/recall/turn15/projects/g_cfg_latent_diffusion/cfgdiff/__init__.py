from .config import DiffusionConfig
from .model import LatentDenoiser
from .schedule import NoiseSchedule

__all__ = ["DiffusionConfig", "LatentDenoiser", "NoiseSchedule"]
