"""Look-alike of ddpm_sampler_betas_index.py: the schedule stays on the CPU and is read with Python
ints (or with t.cpu() and moved to x's device), which PyTorch allows.

Thread: https://github.com/explainingai-code/DDPM-Pytorch/issues/5 (index with t.cpu() and move the
result to the sample's device).
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
    betas = torch.linspace(1e-4, 0.02, T)
    alphas = 1.0 - betas
    alpha_bar = torch.cumprod(alphas, 0)
    x = torch.randn(n, d, device=device)
    for i in reversed(range(T)):
        t = torch.full((n,), i, device=device, dtype=torch.long)
        eps = model(x, t)
        coef = (betas[i] / (1 - alpha_bar[i]).sqrt()).item()
        x = (x - coef * eps) / alphas[i].sqrt()
        if i > 0:
            sigma = betas[t.cpu()].sqrt().to(x.device)[:, None]
            x = x + sigma * torch.randn_like(x)
    return x


def q_sample(x0, t, alpha_bar):
    ab = alpha_bar.to(x0.device)[t][:, None]
    return ab.sqrt() * x0 + (1 - ab).sqrt() * torch.randn_like(x0)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = EpsNet().to(dev).eval()
    out = sample(net, 4, 8, 50, dev)
    ab = torch.cumprod(1 - torch.linspace(1e-4, 0.02, 50), 0)
    print(out.shape, q_sample(out, torch.randint(0, 50, (4,), device=dev), ab).shape)
