"""Configuration of the 2-d diffusion demo (project b_diffusion_config_ok_project).

A correct look-alike written from "[DDIM, DDPM] fix add_noise"
(huggingface/diffusers#648), "RuntimeError: indices should be either on cpu or
on the same device as the indexed tensor" (mattroz/diffusion-ddpm#5) and
"[Examples] Make sure EMA works with any device" (huggingface/diffusers#2382):
the device is picked here and every other module follows it.
"""
import argparse
from dataclasses import dataclass, field

import torch


def pick_device() -> str:
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"


@dataclass
class DiffusionConfig:
    timesteps: int = 200
    beta_start: float = 1e-4
    beta_end: float = 0.02
    hidden: int = 128
    time_dim: int = 32
    batch_size: int = 256
    lr: float = 2e-3
    steps: int = 600
    ema_decay: float = 0.995
    num_samples: int = 1000
    checkpoint: str = "diffusion2d.pt"
    resume: bool = False
    device: str = field(default_factory=pick_device)


def parse_config(argv=None) -> DiffusionConfig:
    cfg = DiffusionConfig()
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=cfg.steps)
    parser.add_argument("--checkpoint", default=cfg.checkpoint)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--device", default=cfg.device)
    args = parser.parse_args(argv)
    cfg.steps, cfg.checkpoint, cfg.resume, cfg.device = args.steps, args.checkpoint, args.resume, args.device
    return cfg
