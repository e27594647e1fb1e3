"""WGAN-GP on a 2-D ring of Gaussians (critic trained n_critic times per generator step)."""
import math

import torch
import torch.nn as nn
import torch.autograd as autograd

LAMBDA_GP = 10.0
N_CRITIC = 5
Z_DIM = 8
DEVICE = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018


def sample_ring(n, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,))
    angle = 2 * math.pi * k.float() / modes
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centers + std * torch.randn(n, 2)


def make_mlp(d_in, d_out, hidden=128):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, d_out))


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)  # expect: DEV006
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interp)
    grads = autograd.grad(outputs=scores, inputs=interp, grad_outputs=torch.ones_like(scores),
                          create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


def train(steps=20, batch=128):
    G = make_mlp(Z_DIM, 2).to(DEVICE)
    D = make_mlp(2, 1).to(DEVICE)
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.5, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.5, 0.9))
    for step in range(steps):
        for _ in range(N_CRITIC):
            real = sample_ring(batch).to(DEVICE)
            z = torch.randn(batch, Z_DIM, device=DEVICE)
            fake = G(z).detach()
            d_loss = D(fake).mean() - D(real).mean() + LAMBDA_GP * gradient_penalty(D, real, fake)
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()
        z = torch.randn(batch, Z_DIM, device=DEVICE)
        g_loss = -D(G(z)).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        if step % 5 == 0:
            print(f"step {step}: D {d_loss.item():.3f} G {g_loss.item():.3f}")


if __name__ == "__main__":
    train()
