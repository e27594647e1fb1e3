import torch
import torch.nn as nn
import torch.nn.functional as F


def extract(a, t, x_shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


class GaussianDiffusion(nn.Module):
    def __init__(self, timesteps=1000, beta_start=1e-4, beta_end=0.02):
        super().__init__()
        self.num_timesteps = timesteps
        betas = torch.linspace(beta_start, beta_end, timesteps, dtype=torch.float64)
        alphas_cumprod = torch.cumprod(1 - betas, dim=0)
        self.register_buffer("betas", betas.float())
        self.register_buffer("sqrt_alphas_cumprod", alphas_cumprod.sqrt().float())
        self.register_buffer("sqrt_one_minus_alphas_cumprod", (1 - alphas_cumprod).sqrt().float())
        self.register_buffer("sqrt_recip_alphas", (1 / (1 - betas)).sqrt().float())

    def training_loss(self, model, x0):
        t = torch.randint(0, self.num_timesteps, (x0.shape[0],), device=x0.device)
        noise = torch.randn_like(x0)
        x_t = extract(self.sqrt_alphas_cumprod, t, x0.shape) * x0 + \
            extract(self.sqrt_one_minus_alphas_cumprod, t, x0.shape) * noise
        return F.mse_loss(model(x_t, t), noise)

    @torch.no_grad()
    def sample(self, model, shape):
        device = self.betas.device
        x = torch.randn(shape, device=device)
        for i in reversed(range(self.num_timesteps)):
            t = torch.full((shape[0],), i, device=device, dtype=torch.long)
            eps = model(x, t)
            coef = extract(self.betas, t, x.shape) / extract(self.sqrt_one_minus_alphas_cumprod, t, x.shape)
            x = extract(self.sqrt_recip_alphas, t, x.shape) * (x - coef * eps)
            if i > 0:
                x = x + extract(self.betas, t, x.shape).sqrt() * torch.randn_like(x)
        return x
