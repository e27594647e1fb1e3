"""WGAN-GP on a 2-D ring of Gaussians, with checkpoint/resume.

    python p_wgan_gp_resume.py --iters 200
    python p_wgan_gp_resume.py --iters 400 --resume /tmp/p_wgan_gp.pt
"""
import argparse
import math
import os

import torch
import torch.nn as nn
from torch import autograd


def ring_of_gaussians(n, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,))
    angle = 2 * math.pi * k.float() / modes
    centers = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centers + std * torch.randn(n, 2)


class Generator(nn.Module):
    def __init__(self, nz=8, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(nz, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)  # expect: DEV006
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_interp = critic(interpolates)
    grads = autograd.grad(
        outputs=d_interp,
        inputs=interpolates,
        grad_outputs=torch.ones_like(d_interp),
        create_graph=True,
        retain_graph=True,
    )[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--critic-iters", type=int, default=5)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--nz", type=int, default=8)
    ap.add_argument("--lambda-gp", type=float, default=10.0)
    ap.add_argument("--resume", default="")
    ap.add_argument("--save", default="/tmp/p_wgan_gp.pt")
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    netG, netD = Generator(args.nz), Critic()
    optG = torch.optim.Adam(netG.parameters(), lr=1e-4, betas=(0.5, 0.9))
    optD = torch.optim.Adam(netD.parameters(), lr=1e-4, betas=(0.5, 0.9))

    start = 0
    if args.resume and os.path.isfile(args.resume):
        ckpt = torch.load(args.resume, map_location="cpu")
        netG.load_state_dict(ckpt["G"])
        netD.load_state_dict(ckpt["D"])
        optG.load_state_dict(ckpt["optG"])  # expect: DEV017
        optD.load_state_dict(ckpt["optD"])  # expect: DEV017
        start = ckpt["iter"]
        print(f"resumed from iteration {start}")

    netG.to(device)
    netD.to(device)

    for it in range(start, args.iters):
        for p in netD.parameters():
            p.requires_grad_(True)
        for _ in range(args.critic_iters):
            real = ring_of_gaussians(args.batch).to(device)
            z = torch.randn(args.batch, args.nz, device=device)
            fake = netG(z).detach()
            d_loss = netD(fake).mean() - netD(real).mean() + args.lambda_gp * gradient_penalty(netD, real, fake)
            optD.zero_grad()
            d_loss.backward()
            optD.step()

        for p in netD.parameters():
            p.requires_grad_(False)
        z = torch.randn(args.batch, args.nz, device=device)
        g_loss = -netD(netG(z)).mean()
        optG.zero_grad()
        g_loss.backward()
        optG.step()

        if (it + 1) % 50 == 0:
            print(f"iter {it + 1}: D {d_loss.item():.3f}  G {g_loss.item():.3f}")

    torch.save({"G": netG.state_dict(), "D": netD.state_dict(), "optG": optG.state_dict(),
                "optD": optD.state_dict(), "iter": args.iters}, args.save)


if __name__ == "__main__":
    main()
