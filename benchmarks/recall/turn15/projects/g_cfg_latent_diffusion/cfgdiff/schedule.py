"""Scaled-linear beta schedule (as in Stable Diffusion) and the forward process."""
import numpy as np
import torch


class NoiseSchedule:
    def __init__(self, timesteps=1000, beta_start=0.00085, beta_end=0.012):
        self.timesteps = timesteps
        betas = np.linspace(beta_start ** 0.5, beta_end ** 0.5, timesteps, dtype=np.float64) ** 2
        self.alphas_cumprod = torch.from_numpy(np.cumprod(1.0 - betas)).float()  # expect: DEV006

    def add_noise(self, x0, noise, t):
        ac = self.alphas_cumprod[t].view(-1, *([1] * (x0.dim() - 1)))
        return ac.sqrt() * x0 + (1 - ac).sqrt() * noise

    def sample_timesteps(self, n, device):
        return torch.randint(0, self.timesteps, (n,), device=device)

    def ddim_timesteps(self, steps):
        return list(range(0, self.timesteps, self.timesteps // steps))[::-1]
