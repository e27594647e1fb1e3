"""DDPM training utilities (model, diffusion process, distributed helpers, image io)."""
from .diffusion import GaussianDiffusion
from .unet import Unet

__all__ = ["GaussianDiffusion", "Unet"]
