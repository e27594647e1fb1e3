"""DDPM-style ancestral sampling: noise-schedule tables are indexed with per-sample timesteps.

Thread: https://github.com/modelscope/modelscope/issues/220 (indices should be either on cpu or on
the same device as the indexed tensor (cpu), in `tensor[t]` of a beta schedule);
https://github.com/CompVis/latent-diffusion/pull/282.
"""
import torch
import torch.nn as nn

T = 50


class Denoiser(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d + 1, 64), nn.SiLU(), nn.Linear(64, d))

    def forward(self, x, t):
        return self.net(torch.cat([x, t.float().unsqueeze(1) / T], dim=1))


@torch.no_grad()
def sample(model, n, device):
    betas = torch.linspace(1e-4, 0.02, T)  # expect: DEV006
    alphas = 1.0 - betas
    abar = torch.cumprod(alphas, dim=0)
    x = torch.randn(n, 16, device=device)
    for i in reversed(range(T)):
        t = torch.full((n,), i, device=device, dtype=torch.long)
        eps = model(x, t)
        coef = (betas[t] / (1 - abar[t]).sqrt()).unsqueeze(1)
        x = (x - coef * eps) / alphas[t].sqrt().unsqueeze(1)
        if i > 0:
            x = x + betas[t].sqrt().unsqueeze(1) * torch.randn_like(x)
    return x


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    print(sample(Denoiser().to(dev), 4, dev).shape)
