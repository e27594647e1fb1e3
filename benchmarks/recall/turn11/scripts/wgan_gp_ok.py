"""Look-alike of wgan_gp_alpha_grad_outputs.py: the interpolation weights and grad_outputs are
made where the images are, --no-cuda is honoured, and the .cuda() calls sit under the flag
derived from torch.cuda.is_available().

Threads: https://github.com/caogang/wgan-gp/issues/16 (grad_outputs=torch.ones(...).cuda(gpu)
if use_cuda else torch.ones(...)) and https://github.com/yunjey/stargan/issues/11 (check
torch.cuda.is_available() before .cuda()).
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

Z = 32


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1, 1, 1, device=real.device)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    score = critic(interp)
    grads = torch.autograd.grad(outputs=score, inputs=interp, grad_outputs=torch.ones_like(score),
                                create_graph=True, retain_graph=True)[0]
    return ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    gen = nn.Sequential(nn.Linear(Z, 64 * 4 * 4), nn.ReLU(), nn.Unflatten(1, (64, 4, 4)),
                        nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.ReLU(),
                        nn.ConvTranspose2d(32, 1, 4, 2, 1), nn.Tanh())
    critic = nn.Sequential(nn.Conv2d(1, 32, 4, 2, 1), nn.LeakyReLU(0.2),
                           nn.Conv2d(32, 64, 4, 2, 1), nn.LeakyReLU(0.2),
                           nn.Flatten(), nn.Linear(64 * 4 * 4, 1))
    if use_cuda:
        gen.cuda()
        critic.cuda()
    opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.0, 0.9))
    opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))
    textures = torch.sin(torch.linspace(0, 12, 16)).view(1, 1, 16, 1) * torch.rand(256, 1, 1, 16)
    loader = DataLoader(TensorDataset(textures), batch_size=32, shuffle=True, drop_last=True)
    for step, (real,) in enumerate(loader):
        if use_cuda:
            real = real.cuda(non_blocking=True)
        fake = gen(torch.randn(real.size(0), Z, device=real.device)).detach()
        loss_c = critic(fake).mean() - critic(real).mean() + 10.0 * gradient_penalty(critic, real, fake)
        opt_c.zero_grad()
        loss_c.backward()
        opt_c.step()
        if step % 5 == 0:
            loss_g = -critic(gen(torch.randn(real.size(0), Z, device=real.device))).mean()
            opt_g.zero_grad()
            loss_g.backward()
            opt_g.step()
            print(f"step {step}: critic {loss_c.item():.3f} gen {loss_g.item():.3f}")


if __name__ == "__main__":
    main()
