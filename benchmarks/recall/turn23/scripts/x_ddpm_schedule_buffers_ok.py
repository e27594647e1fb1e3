"""DDPM training and sampling with the noise schedule registered as buffers
of a small scheduler module, so it moves with `.to(device)`. Sampling is
seeded with a generator on whatever device was picked."""
import argparse

import torch
import torch.nn as nn


class NoiseSchedule(nn.Module):
    def __init__(self, steps=100, beta_start=1e-4, beta_end=0.02):
        super().__init__()
        betas = torch.linspace(beta_start, beta_end, steps)
        self.steps = steps
        self.register_buffer("betas", betas)
        self.register_buffer("alphas", 1.0 - betas)
        self.register_buffer("alpha_bars", torch.cumprod(1.0 - betas, dim=0))

    def q_sample(self, x0, t, noise):
        ab = self.alpha_bars[t][:, None]
        return ab.sqrt() * x0 + (1 - ab).sqrt() * noise


class EpsMLP(nn.Module):
    def __init__(self, steps, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(steps, 16)
        self.net = nn.Sequential(nn.Linear(2 + 16, hidden), nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.t_embed(t)], dim=1))


@torch.no_grad()
def sample(model, sched, n, generator):
    device = sched.betas.device
    x = torch.randn(n, 2, device=device, generator=generator)
    for i in reversed(range(sched.steps)):
        t = torch.full((n,), i, dtype=torch.long, device=device)
        eps = model(x, t)
        ab_t = sched.alpha_bars[t][:, None]
        mean = (x - sched.betas[i] / (1 - ab_t).sqrt() * eps) / sched.alphas[i].sqrt()
        noise = torch.randn(x.shape, device=device, generator=generator) if i > 0 else 0.0
        x = mean + sched.betas[i].sqrt() * noise
    return x


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    device = torch.device(args.device)

    sched = NoiseSchedule().to(device)
    model = EpsMLP(sched.steps).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    centre = torch.tensor([1.0, -1.0], device=device)
    for _ in range(60):
        x0 = torch.randn(128, 2, device=device) * 0.5 + centre
        t = torch.randint(0, sched.steps, (128,), device=device)
        noise = torch.randn_like(x0)
        loss = ((model(sched.q_sample(x0, t, noise), t) - noise) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

    generator = torch.Generator(device=device).manual_seed(args.seed)
    x = sample(model, sched, 256, generator)
    print(f"loss {loss.item():.4f} sample mean {x.mean(0).tolist()}")


if __name__ == "__main__":
    main()
