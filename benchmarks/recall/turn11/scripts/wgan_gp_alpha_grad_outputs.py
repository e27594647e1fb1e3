"""WGAN-GP on 16x16 synthetic textures: five critic steps per generator step, with the gradient
penalty computed on random interpolates between real and fake images.

Threads: https://github.com/aladdinpersson/Machine-Learning-Collection/issues/58 ("you forget to
take to(device) on alpha" in the gradient penalty of utils.py) and
https://github.com/yunjey/stargan/issues/11 (grad_outputs=torch.ones(out.size()) in the penalty).
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

Z = 32


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1, 1, 1)  # expect: DEV006
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    score = critic(interp)
    grads = torch.autograd.grad(outputs=score, inputs=interp,
                                grad_outputs=torch.ones(score.size()),  # expect: DEV006
                                create_graph=True, retain_graph=True)[0]
    return ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()


def main(n_critic=5, lam=10.0):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    gen = nn.Sequential(nn.Linear(Z, 64 * 4 * 4), nn.ReLU(), nn.Unflatten(1, (64, 4, 4)),
                        nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.ReLU(),
                        nn.ConvTranspose2d(32, 1, 4, 2, 1), nn.Tanh()).to(device)
    critic = nn.Sequential(nn.Conv2d(1, 32, 4, 2, 1), nn.LeakyReLU(0.2),
                           nn.Conv2d(32, 64, 4, 2, 1), nn.LeakyReLU(0.2),
                           nn.Flatten(), nn.Linear(64 * 4 * 4, 1)).to(device)
    opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.0, 0.9))
    opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))
    textures = torch.sin(torch.linspace(0, 12, 16)).view(1, 1, 16, 1) * torch.rand(256, 1, 1, 16)
    loader = DataLoader(TensorDataset(textures), batch_size=32, shuffle=True, drop_last=True)
    for step, (real,) in enumerate(loader):
        real = real.to(device)
        fake = gen(torch.randn(real.size(0), Z, device=device)).detach()
        loss_c = critic(fake).mean() - critic(real).mean() + lam * gradient_penalty(critic, real, fake)
        opt_c.zero_grad()
        loss_c.backward()
        opt_c.step()
        if step % n_critic == 0:
            loss_g = -critic(gen(torch.randn(real.size(0), Z, device=device))).mean()
            opt_g.zero_grad()
            loss_g.backward()
            opt_g.step()
            print(f"step {step}: critic {loss_c.item():.3f} gen {loss_g.item():.3f}")


if __name__ == "__main__":
    main()
