"""Linear beta schedule kept as buffers, with forward noising and ancestral sampling."""
import torch
import torch.nn as nn


class LinearSchedule(nn.Module):
    def __init__(self, timesteps, beta_start, beta_end):
        super().__init__()
        self.timesteps = timesteps
        betas = torch.linspace(beta_start, beta_end, timesteps)
        alphas = 1.0 - betas
        alphas_cumprod = torch.cumprod(alphas, dim=0)
        self.register_buffer("betas", betas)
        self.register_buffer("sqrt_recip_alphas", alphas.rsqrt())
        self.register_buffer("sqrt_ab", alphas_cumprod.sqrt())
        self.register_buffer("sqrt_one_minus_ab", (1.0 - alphas_cumprod).sqrt())

    def q_sample(self, x0, t, noise):
        return self.sqrt_ab[t].unsqueeze(1) * x0 + self.sqrt_one_minus_ab[t].unsqueeze(1) * noise

    @torch.no_grad()
    def sample(self, model, n, dim=2):
        device = self.betas.device
        x = torch.randn(n, dim, device=device)
        for i in reversed(range(self.timesteps)):
            t = torch.full((n,), i, dtype=torch.long, device=device)
            eps = model(x, t)
            coef = self.betas[i] / self.sqrt_one_minus_ab[i]
            mean = self.sqrt_recip_alphas[i] * (x - coef * eps)
            if i > 0:
                x = mean + self.betas[i].sqrt() * torch.randn_like(x)
            else:
                x = mean
        return x

    def snr(self):
        return (self.sqrt_ab / self.sqrt_one_minus_ab) ** 2
