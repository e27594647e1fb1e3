"""WGAN-GP: critic trained with a gradient penalty on random interpolates between real and fake."""
import torch
import torch.autograd as autograd
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

latent_dim, data_dim, lambda_gp, n_critic = 8, 16, 10.0, 2
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

generator = nn.Sequential(nn.Linear(latent_dim, 64), nn.ReLU(), nn.Linear(64, data_dim)).to(device)
critic = nn.Sequential(nn.Linear(data_dim, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1)).to(device)
opt_g = torch.optim.Adam(generator.parameters(), lr=1e-4, betas=(0.0, 0.9))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))


def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand(real_samples.size(0), 1)  # expect: DEV006
    interpolates = (alpha * real_samples + (1 - alpha) * fake_samples).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.size(0), 1)  # expect: DEV006
    gradients = autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake,
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


loader = DataLoader(TensorDataset(torch.randn(32, data_dim) + 2.0), batch_size=8, shuffle=True)
for epoch in range(1):
    for i, (real,) in enumerate(loader):
        real = real.to(device)
        z = torch.randn(real.size(0), latent_dim, device=device)
        fake = generator(z)
        opt_c.zero_grad()
        gp = compute_gradient_penalty(critic, real, fake.detach())
        loss_c = -critic(real).mean() + critic(fake.detach()).mean() + lambda_gp * gp
        loss_c.backward()
        opt_c.step()
        if i % n_critic == 0:
            opt_g.zero_grad()
            loss_g = -critic(generator(z)).mean()
            loss_g.backward()
            opt_g.step()
        print(f"[{i}] critic {loss_c.item():.3f} gp {gp.item():.3f} gen {loss_g.item():.3f}")
