"""Least-squares GAN on small images with a multi-scale discriminator: one patch discriminator per
scale (full, 1/2, 1/4), kept in a dict keyed by the scale.

Thread: https://github.com/pytorch/pytorch/issues/4412 (how to use net.cuda() when the network
class keeps nn layers in a list or dict).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchDisc(nn.Module):
    def __init__(self, c=3):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(c, 32, 4, 2, 1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(32, 64, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(64, 1, 3, 1, 1))

    def forward(self, x):
        return self.net(x)


class MultiScaleDisc(nn.Module):
    def __init__(self, scales=(1, 2, 4)):
        super().__init__()
        self.scales = scales
        self.discs = {str(s): PatchDisc() for s in scales}  # expect: DEV009
        self.gain = nn.Parameter(torch.ones(len(scales)))

    def forward(self, x):
        return [g * self.discs[str(s)](F.avg_pool2d(x, s) if s > 1 else x)
                for g, s in zip(self.gain, self.scales)]


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    gen = nn.Sequential(nn.Linear(64, 3 * 32 * 32), nn.Tanh(), nn.Unflatten(1, (3, 32, 32))).to(device)
    disc = MultiScaleDisc().to(device)
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.999))
    real_pool = torch.rand(256, 3, 32, 32) * 2 - 1
    for step in range(100):
        real = real_pool[torch.randint(0, 256, (16,))].to(device)
        fake = gen(torch.randn(16, 64, device=device))
        d_loss = sum(((r - 1) ** 2).mean() + (f ** 2).mean()
                     for r, f in zip(disc(real), disc(fake.detach())))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = sum(((f - 1) ** 2).mean() for f in disc(fake))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
    print(d_loss.item(), g_loss.item())


if __name__ == "__main__":
    main()
