"""WGAN-GP gradient penalty with the interpolation weights and grad_outputs on the samples' device."""
import torch
import torch.nn as nn


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1, 1, 1, device=real.device).expand_as(real)
    mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(mixed)
    grads = torch.autograd.grad(scores, mixed, grad_outputs=torch.ones_like(scores), create_graph=True)[0]
    return ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
critic = nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(8 * 4 * 4, 1)).to(device)
generator = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 64), nn.Unflatten(1, (1, 8, 8)), nn.Tanh()).to(device)
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.5, 0.9))
opt_g = torch.optim.Adam(generator.parameters(), lr=1e-4, betas=(0.5, 0.9))

for step in range(3):
    real = torch.rand(6, 1, 8, 8, device=device) * 2 - 1
    noise = torch.randn(6, 4).to(device)
    fake = generator(noise)
    loss_c = critic(fake.detach()).mean() - critic(real).mean() + 10 * gradient_penalty(critic, real, fake.detach())
    opt_c.zero_grad()
    loss_c.backward()
    opt_c.step()
    loss_g = -critic(generator(noise)).mean()
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    print(f"step {step} critic {loss_c.item():.3f} generator {loss_g.item():.3f}")
