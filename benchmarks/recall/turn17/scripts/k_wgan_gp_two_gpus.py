"""WGAN-GP on 2-D toy data (8 gaussians). Generator and critic live on separate GPUs
when available so the critic's extra iterations don't fight the generator for memory.
"""
import math

import torch
import torch.nn as nn
from torch import autograd

N_CRITIC = 5
LAMBDA_GP = 10.0
BATCH = 128
ITERS = 60

dev_g = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
dev_d = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018


def eight_gaussians(n, device):
    centers = torch.tensor([(math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)) for k in range(8)])
    idx = torch.randint(0, 8, (n,))
    pts = centers[idx] * 2 + 0.02 * torch.randn(n, 2)
    return pts.to(device)


generator = nn.Sequential(
    nn.Linear(2, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 2)
).to(dev_g)
critic = nn.Sequential(
    nn.Linear(2, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1)
).to(dev_d)

opt_g = torch.optim.Adam(generator.parameters(), lr=1e-4, betas=(0.5, 0.9))
opt_d = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.5, 0.9))


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)  # expect: DEV006
    alpha = alpha.expand_as(real)
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_interp = critic(interpolates)
    grads = autograd.grad(
        outputs=d_interp, inputs=interpolates,
        grad_outputs=torch.ones_like(d_interp),
        create_graph=True, retain_graph=True, only_inputs=True,
    )[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


for it in range(ITERS):
    for p in critic.parameters():
        p.requires_grad_(True)
    for _ in range(N_CRITIC):
        real = eight_gaussians(BATCH, dev_d)
        with torch.no_grad():
            fake = generator(torch.randn(BATCH, 2, device=dev_g)).to(dev_d)
        d_loss = critic(fake).mean() - critic(real).mean()
        gp = gradient_penalty(critic, real, fake)
        opt_d.zero_grad()
        (d_loss + LAMBDA_GP * gp).backward()
        opt_d.step()

    for p in critic.parameters():
        p.requires_grad_(False)
    fake = generator(torch.randn(BATCH, 2, device=dev_g))
    g_loss = -critic(fake.to(dev_d)).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()

    if it % 20 == 0:
        print(f"iter {it}: W {-d_loss.item():.3f} gp {gp.item():.3f} g {g_loss.item():.3f}")
