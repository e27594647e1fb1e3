"""WGAN-GP on a toy 2-D ring of gaussians, trainer-class style."""
import math

import torch
import torch.nn as nn
from torch import autograd
from torch.utils.data import DataLoader, TensorDataset


def ring_data(n=2048, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,))
    ang = 2 * math.pi * k.float() / modes
    centers = torch.stack([radius * ang.cos(), radius * ang.sin()], dim=1)
    return centers + std * torch.randn(n, 2)


class Generator(nn.Module):
    def __init__(self, nz=8, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(nz, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, hidden),
                                 nn.LeakyReLU(0.2), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)  # expect: DEV006
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interp)
    grads = autograd.grad(outputs=scores, inputs=interp, grad_outputs=torch.ones_like(scores),
                          create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


class WGANTrainer:
    def __init__(self, nz=8, n_critic=5, gp_weight=10.0, lr=1e-4, device=None):
        self.device = device or torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.nz = nz
        self.n_critic = n_critic
        self.gp_weight = gp_weight
        self.G = Generator(nz).to(self.device)
        self.D = Critic().to(self.device)
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=lr, betas=(0.5, 0.9))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=lr, betas=(0.5, 0.9))
        self.fixed_noise = torch.randn(256, nz)  # also: DEV006
        self.fixed_noise.to(self.device)  # expect: DEV005

    def critic_step(self, real):
        z = torch.randn(real.size(0), self.nz, device=self.device)
        fake = self.G(z).detach()
        loss_d = self.D(fake).mean() - self.D(real).mean()
        loss_d = loss_d + self.gp_weight * gradient_penalty(self.D, real, fake)
        self.opt_d.zero_grad(set_to_none=True)
        loss_d.backward()
        self.opt_d.step()
        return loss_d.item()

    def generator_step(self, batch_size):
        z = torch.randn(batch_size, self.nz, device=self.device)
        loss_g = -self.D(self.G(z)).mean()
        self.opt_g.zero_grad(set_to_none=True)
        loss_g.backward()
        self.opt_g.step()
        return loss_g.item()

    @torch.no_grad()
    def snapshot(self):
        self.G.eval()
        pts = self.G(self.fixed_noise)
        self.G.train()
        return pts.norm(dim=1).mean().item()

    def fit(self, loader, epochs=1):
        for epoch in range(epochs):
            for i, (real,) in enumerate(loader):
                real = real.to(self.device)
                d = self.critic_step(real)
                if i % self.n_critic == 0:
                    g = self.generator_step(real.size(0))
            print(f"epoch {epoch} D {d:.3f} G {g:.3f} mean radius {self.snapshot():.3f}")


if __name__ == "__main__":
    loader = DataLoader(TensorDataset(ring_data()), batch_size=128, shuffle=True, drop_last=True)
    WGANTrainer().fit(loader, epochs=2)
