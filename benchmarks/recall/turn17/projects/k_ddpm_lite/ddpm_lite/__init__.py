from .ema import EMA
from .sampler import ddim_sample
from .schedule import NoiseSchedule, extract
from .unet import TinyUNet

__all__ = ["EMA", "ddim_sample", "NoiseSchedule", "extract", "TinyUNet"]
