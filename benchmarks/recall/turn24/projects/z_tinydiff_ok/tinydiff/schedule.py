import torch
import torch.nn as nn


class NoiseSchedule(nn.Module):
    """Linear beta schedule; kept as buffers so .to(device) carries it."""

    def __init__(self, timesteps, beta_start=1e-4, beta_end=0.05):
        super().__init__()
        betas = torch.linspace(beta_start, beta_end, timesteps)
        alphas = 1.0 - betas
        self.timesteps = timesteps
        self.register_buffer("betas", betas)
        self.register_buffer("alphas", alphas)
        self.register_buffer("alphas_cumprod", torch.cumprod(alphas, dim=0))

    def add_noise(self, x0, t, noise):
        ab = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        return ab.sqrt() * x0 + (1 - ab).sqrt() * noise

    def sample_timesteps(self, n, device):
        return torch.randint(0, self.timesteps, (n,), device=device)
