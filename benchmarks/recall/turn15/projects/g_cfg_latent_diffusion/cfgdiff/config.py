from dataclasses import dataclass


@dataclass
class DiffusionConfig:
    latent_channels: int = 4
    latent_size: int = 8
    num_classes: int = 10
    timesteps: int = 1000
    beta_start: float = 0.00085
    beta_end: float = 0.012
    p_uncond: float = 0.1
    width: int = 64
    lr: float = 1e-4
    batch_size: int = 16
    epochs: int = 1
    guidance_scale: float = 5.0
    sample_steps: int = 25
