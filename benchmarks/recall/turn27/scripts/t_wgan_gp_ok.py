"""WGAN-GP on toy 2-D rings: critic trained n_critic times per generator step."""
import argparse

import numpy as np
import torch
import torch.nn as nn


def make_rings(n, rng):
    theta = rng.uniform(0, 2 * np.pi, size=n)
    r = rng.choice([1.0, 2.0], size=n)
    pts = np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1)
    return pts.astype(np.float32)


class Generator(nn.Module):
    def __init__(self, nz=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(nz, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def gradient_penalty(critic, real, fake):
    b = real.size(0)
    alpha = torch.rand(b, 1, device=real.device)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    score = critic(interp)
    grads = torch.autograd.grad(
        outputs=score,
        inputs=interp,
        grad_outputs=torch.ones(score.size(), device=score.device),
        create_graph=True,
        retain_graph=True,
    )[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--nz", type=int, default=8)
    p.add_argument("--n-critic", type=int, default=3)
    p.add_argument("--lambda-gp", type=float, default=10.0)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()

    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")
    rng = np.random.default_rng(0)

    G, D = Generator(args.nz).to(device), Critic().to(device)
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
    fixed_z = torch.randn(256, args.nz, device=device)

    for step in range(args.steps):
        for _ in range(args.n_critic):
            real = torch.from_numpy(make_rings(64, rng)).to(device)
            z = torch.randn(64, args.nz, device=device)
            fake = G(z).detach()
            d_loss = D(fake).mean() - D(real).mean()
            d_loss = d_loss + args.lambda_gp * gradient_penalty(D, real, fake)
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()

        z = torch.randn(64, args.nz, device=device)
        g_loss = -D(G(z)).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()

        if step % 10 == 0:
            with torch.no_grad():
                samples = G(fixed_z).cpu().numpy()
            radius = np.sqrt((samples ** 2).sum(axis=1))
            print(f"step {step} d={d_loss.item():.3f} g={g_loss.item():.3f} r={radius.mean():.2f}")


if __name__ == "__main__":
    main()
