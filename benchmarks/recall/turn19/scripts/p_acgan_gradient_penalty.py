"""Conditional WGAN-GP with an auxiliary classifier head (AC-GAN style) on 8x8 toy glyphs.

Fixed noise/labels are kept for a per-epoch sample grid; training can be resumed.
"""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--latent", type=int, default=16)
parser.add_argument("--classes", type=int, default=4)
parser.add_argument("--gp", type=float, default=10.0)
parser.add_argument("--n-critic", type=int, default=3)
parser.add_argument("--ckpt", default="/tmp/p_acgan.pt")
parser.add_argument("--resume", action="store_true")
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class G(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(args.latent + args.classes, 128), nn.ReLU(),
            nn.Linear(128, 64), nn.Tanh(),
        )

    def forward(self, z, y):
        onehot = F.one_hot(y, args.classes).float()
        return self.net(torch.cat([z, onehot], 1)).view(-1, 1, 8, 8)


class D(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(64, 128), nn.LeakyReLU(0.2), nn.Linear(128, 128), nn.LeakyReLU(0.2))
        self.adv = nn.Linear(128, 1)
        self.aux = nn.Linear(128, args.classes)

    def forward(self, x):
        h = self.body(x)
        return self.adv(h), self.aux(h)


def gradient_penalty(netD, real, fake):
    eps = torch.rand(real.size(0), 1, 1, 1, device=real.device)
    mixed = (eps * real + (1 - eps) * fake).requires_grad_(True)
    adv, _ = netD(mixed)
    grad = torch.autograd.grad(adv.sum(), mixed, create_graph=True)[0]
    return ((grad.flatten(1).norm(2, dim=1) - 1) ** 2).mean()


def toy_glyphs(n=512):
    y = np.random.randint(0, args.classes, n)
    x = -np.ones((n, 1, 8, 8), dtype=np.float32)
    x[np.arange(n), 0, 2 * y, :] = 1.0
    x[np.arange(n), 0, :, 2 * y] = 1.0
    return torch.from_numpy(x), torch.from_numpy(y)


netG, netD = G().to(device), D().to(device)
optG = torch.optim.Adam(netG.parameters(), lr=1e-4, betas=(0.0, 0.9))
optD = torch.optim.Adam(netD.parameters(), lr=1e-4, betas=(0.0, 0.9))
start_epoch = 0
if args.resume and os.path.exists(args.ckpt):
    state = torch.load(args.ckpt, map_location=device)
    netG.load_state_dict(state["G"])
    netD.load_state_dict(state["D"])
    optG.load_state_dict(state["optG"])
    optD.load_state_dict(state["optD"])
    start_epoch = state["epoch"] + 1

fixed_z = torch.randn(4 * args.classes, args.latent, device=device)
fixed_y = torch.arange(args.classes, device=device).repeat_interleave(4)

X, Y = toy_glyphs()
for epoch in range(start_epoch, start_epoch + args.epochs):
    perm = torch.randperm(len(X))
    for i, idx in enumerate(perm.split(64)):
        real, labels = X[idx].to(device), Y[idx].to(device)
        z = torch.randn(real.size(0), args.latent, device=device)
        fake = netG(z, labels)

        adv_real, cls_real = netD(real)
        adv_fake, _ = netD(fake.detach())
        d_loss = adv_fake.mean() - adv_real.mean() + args.gp * gradient_penalty(netD, real, fake.detach()) \
            + F.cross_entropy(cls_real, labels)
        optD.zero_grad()
        d_loss.backward()
        optD.step()

        if i % args.n_critic == 0:
            adv, cls = netD(netG(z, labels))
            g_loss = -adv.mean() + F.cross_entropy(cls, labels)
            optG.zero_grad()
            g_loss.backward()
            optG.step()

    with torch.no_grad():
        grid = netG(fixed_z, fixed_y).cpu().numpy()
    print(f"epoch {epoch}: D {d_loss.item():.3f} G {g_loss.item():.3f} sample range [{grid.min():.2f}, {grid.max():.2f}]")
    torch.save({"G": netG.state_dict(), "D": netD.state_dict(), "optG": optG.state_dict(),
                "optD": optD.state_dict(), "epoch": epoch}, args.ckpt)
