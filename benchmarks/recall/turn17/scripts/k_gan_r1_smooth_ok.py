"""Small conv GAN with one-sided label smoothing and an R1 gradient penalty on real images."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd
from torch.utils.data import DataLoader, TensorDataset


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--gpu", type=int, default=0, help="cuda device index, -1 for cpu")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--nz", type=int, default=32)
    p.add_argument("--r1", type=float, default=5.0)
    p.add_argument("--smooth", type=float, default=0.9)
    return p.parse_args()


class G(nn.Module):
    def __init__(self, nz):
        super().__init__()
        self.fc = nn.Linear(nz, 64 * 4 * 4)
        self.net = nn.Sequential(
            nn.BatchNorm2d(64), nn.ReLU(),
            nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.ConvTranspose2d(32, 1, 4, 2, 1), nn.Tanh())

    def forward(self, z):
        return self.net(self.fc(z).view(-1, 64, 4, 4))


class D(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 32, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(32, 64, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(64 * 4 * 4, 1))

    def forward(self, x):
        return self.net(x).view(-1)


def r1_penalty(d_out, real):
    grad, = autograd.grad(outputs=d_out.sum(), inputs=real, create_graph=True)
    return grad.pow(2).flatten(1).sum(1).mean()


def main():
    args = parse()
    use_cuda = args.gpu >= 0 and torch.cuda.is_available()
    device = torch.device(f"cuda:{args.gpu}" if use_cuda else "cpu")

    data = torch.rand(320, 1, 16, 16).round() * 2 - 1
    loader = DataLoader(TensorDataset(data), batch_size=32, shuffle=True, drop_last=True)

    netG, netD = G(args.nz).to(device), D().to(device)
    optG = torch.optim.Adam(netG.parameters(), 2e-4, betas=(0.5, 0.999))
    optD = torch.optim.Adam(netD.parameters(), 2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    fixed_z = torch.randn(16, args.nz, device=device)

    for epoch in range(args.epochs):
        for i, (real,) in enumerate(loader):
            real = real.to(device).requires_grad_(True)
            b = real.size(0)
            real_t = torch.full((b,), args.smooth, device=device)
            fake_t = torch.zeros(b, device=device)

            z = torch.randn(b, args.nz, device=device)
            fake = netG(z)
            d_real = netD(real)
            d_fake = netD(fake.detach())
            lossD = bce(d_real, real_t) + bce(d_fake, fake_t) + 0.5 * args.r1 * r1_penalty(d_real, real)
            optD.zero_grad()
            lossD.backward()
            optD.step()

            lossG = bce(netD(fake), torch.ones_like(fake_t))
            optG.zero_grad()
            lossG.backward()
            optG.step()
        print(f"epoch {epoch} D {lossD.item():.3f} G {lossG.item():.3f}")

    netG.eval()
    with torch.no_grad():
        grid = netG(fixed_z).cpu().numpy()
    np.save("gan_r1_samples.npy", (grid + 1) / 2)
    print("saved samples", grid.shape)


if __name__ == "__main__":
    main()
