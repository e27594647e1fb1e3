"""DDPM ancestral sampler: a noise-prediction network is run for T steps, with the schedule looked up
at a batch of timestep tensors.

Thread: https://github.com/mattroz/diffusion-ddpm/issues/5 (indices should be either on cpu or on the
same device as the indexed tensor: betas made with torch.linspace stay on the CPU, timesteps on CUDA).
"""
import torch
import torch.nn as nn


class EpsNet(nn.Module):
    def __init__(self, d=8, T=50):
        super().__init__()
        self.t_emb = nn.Embedding(T, 32)
        self.net = nn.Sequential(nn.Linear(d + 32, 64), nn.SiLU(), nn.Linear(64, d))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.t_emb(t)], -1))


@torch.no_grad()
def sample(model, n, d, T, device):
    betas = torch.linspace(1e-4, 0.02, T)  # expect: DEV006
    alphas = 1.0 - betas
    alpha_bar = torch.cumprod(alphas, 0)
    x = torch.randn(n, d, device=device)
    for i in reversed(range(T)):
        t = torch.full((n,), i, device=device, dtype=torch.long)
        eps = model(x, t)
        coef = (betas[t] / (1 - alpha_bar[t]).sqrt())[:, None]
        x = (x - coef * eps) / alphas[t].sqrt()[:, None]
        if i > 0:
            x = x + betas[t].sqrt()[:, None] * torch.randn_like(x)
    return x


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = EpsNet().to(dev).eval()
    print(sample(net, 4, 8, 50, dev).shape)
