"""Ancestral DDPM sampling (and a DDIM-style strided variant) from a small
epsilon-prediction MLP trained on 2-D toy data. Reproducible with --seed."""
import argparse

import torch
import torch.nn as nn

T_STEPS = 100


def timestep_embedding(t, dim=16):
    half = dim // 2
    freqs = torch.exp(-torch.arange(half, device=t.device) * (9.21 / half))
    args = t.float()[:, None] * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=1)


class EpsModel(nn.Module):
    def __init__(self, dim=2, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 16, hidden), nn.SiLU(), nn.Linear(hidden, hidden),
                                 nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x, t):
        return self.net(torch.cat([x, timestep_embedding(t)], dim=1))


betas = torch.linspace(1e-4, 0.02, T_STEPS)
alphas = 1.0 - betas
alpha_bars = torch.cumprod(1.0 - torch.linspace(1e-4, 0.02, T_STEPS), dim=0)  # expect: DEV006


def train(model, device, steps=50):
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    ab = alpha_bars.to(device)
    for _ in range(steps):
        x0 = torch.randn(128, 2, device=device) * 0.5 + torch.tensor([1.0, -1.0], device=device)
        t = torch.randint(0, T_STEPS, (128,), device=device)
        noise = torch.randn_like(x0)
        xt = ab[t].sqrt()[:, None] * x0 + (1 - ab[t]).sqrt()[:, None] * noise
        loss = ((model(xt, t) - noise) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


@torch.no_grad()
def ddpm_sample(model, n, device, generator):
    x = torch.randn(n, 2, device=device, generator=generator)
    for i in reversed(range(T_STEPS)):
        t = torch.full((n,), i, device=device, dtype=torch.long)
        eps = model(x, t)
        a_t, b_t = alphas[i], betas[i]  # 0-dim CPU values: fine with device tensors
        ab_t = alpha_bars[t][:, None]
        mean = (x - b_t / (1 - ab_t).sqrt() * eps) / a_t.sqrt()
        if i > 0:
            x = mean + b_t.sqrt() * torch.randn(x.shape, device=device, generator=generator)
        else:
            x = mean
    return x


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n", type=int, default=256)
    args = parser.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"

    model = EpsModel().to(device)
    print(f"train loss {train(model, device):.4f}")
    generator = torch.Generator(device="cuda").manual_seed(args.seed)  # expect: DEV001
    samples = ddpm_sample(model, args.n, device, generator)
    print("sample mean", samples.mean(0).tolist())


if __name__ == "__main__":
    main()
