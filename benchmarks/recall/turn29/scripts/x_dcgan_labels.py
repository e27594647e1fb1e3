"""Small DCGAN on 16x16 synthetic stripes with a configurable-depth discriminator."""
import argparse

import torch
import torch.nn as nn

NZ = 16


class Generator(nn.Module):
    def __init__(self, nz=NZ, ngf=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, 1, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, ndf=32, depth=2):
        super().__init__()
        chans = [1] + [ndf * 2 ** i for i in range(depth)]
        self.blocks = [  # expect: DEV009
            nn.Sequential(nn.Conv2d(chans[i], chans[i + 1], 4, 2, 1, bias=False), nn.LeakyReLU(0.2, True))
            for i in range(depth)
        ]
        self.head = nn.Conv2d(chans[-1], 1, 16 // 2 ** depth, 1, 0)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x).view(-1)


def stripes(n):
    phase = torch.rand(n, 1, 1, 1) * 6.28
    xs = torch.linspace(0, 12.56, 16).view(1, 1, 1, 16)
    return torch.sin(xs + phase).expand(n, 1, 16, 16).contiguous()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    G, D = Generator().to(device), Discriminator().to(device)
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()

    for it in range(args.iters):
        real = stripes(args.batch).to(device)
        z = torch.randn(args.batch, NZ, 1, 1, device=device)
        fake = G(z)
        b = real.size(0)
        targets = torch.cat([torch.ones(b), torch.zeros(b)])  # expect: DEV006
        d_out = torch.cat([D(real), D(fake.detach())])
        loss_d = bce(d_out, targets)
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()

        g_out = D(fake)
        loss_g = bce(g_out, torch.ones_like(g_out))
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        if it % 5 == 0:
            print(f"iter {it}: D {loss_d.item():.3f} G {loss_g.item():.3f}")


if __name__ == "__main__":
    main()
