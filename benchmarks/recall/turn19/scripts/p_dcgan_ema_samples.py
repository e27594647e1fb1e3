"""DCGAN on 16x16 synthetic blobs, with an exponential moving average of the
generator weights used for the sample grids (as in ProGAN/StyleGAN training).
"""
import argparse
import copy
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--nz", type=int, default=32)
parser.add_argument("--ngf", type=int, default=32)
parser.add_argument("--ndf", type=int, default=32)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--ema-decay", type=float, default=0.999)
parser.add_argument("--outf", default="/tmp/p_dcgan_samples")
parser.add_argument("--cuda", action="store_true", help="enables cuda")
opt = parser.parse_args()

device = torch.device("cuda:0" if opt.cuda and torch.cuda.is_available() else "cpu")
os.makedirs(opt.outf, exist_ok=True)


def blobs(n=256):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    c = torch.rand(n, 2, 1, 1) * 10 + 3
    img = torch.exp(-((xx - c[:, :1]) ** 2 + (yy - c[:, 1:]) ** 2) / 8)
    return TensorDataset(img * 2 - 1)


class Generator(nn.Module):
    def __init__(self, nz, ngf):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, 1, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, ndf):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(1, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x).view(-1)


def weights_init(m):
    name = m.__class__.__name__
    if name.find("Conv") != -1:
        nn.init.normal_(m.weight, 0.0, 0.02)
    elif name.find("BatchNorm") != -1:
        nn.init.normal_(m.weight, 1.0, 0.02)
        nn.init.zeros_(m.bias)


def save_grid(imgs, path, nrow=8):
    imgs = (imgs.clamp(-1, 1) + 1) / 2
    rows = [torch.cat(list(imgs[i:i + nrow, 0]), dim=1) for i in range(0, len(imgs), nrow)]
    plt.imsave(path, torch.cat(rows, dim=0).cpu().numpy(), cmap="gray")


@torch.no_grad()
def accumulate(ema_model, model, decay):
    for p_ema, p in zip(ema_model.parameters(), model.parameters()):
        p_ema.mul_(decay).add_(p, alpha=1 - decay)
    for b_ema, b in zip(ema_model.buffers(), model.buffers()):
        b_ema.copy_(b)


netG = Generator(opt.nz, opt.ngf)
netG.apply(weights_init)
netG_ema = copy.deepcopy(netG).eval()  # expect: DEV016
netD = Discriminator(opt.ndf)
netD.apply(weights_init)
netG.to(device)
netD.to(device)

criterion = nn.BCELoss()
fixed_noise = torch.randn(64, opt.nz, 1, 1, device=device)
real_label, fake_label = 1.0, 0.0
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
loader = DataLoader(blobs(), batch_size=32, shuffle=True, drop_last=True)

for epoch in range(opt.epochs):
    for i, (real,) in enumerate(loader):
        # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        real = real.to(device)
        b = real.size(0)
        label = torch.full((b,), real_label, device=device)
        errD_real = criterion(netD(real), label)
        errD_real.backward()
        noise = torch.randn(b, opt.nz, 1, 1, device=device)
        fake = netG(noise)
        label.fill_(fake_label)
        errD_fake = criterion(netD(fake.detach()), label)
        errD_fake.backward()
        optimizerD.step()

        # (2) update G: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        errG = criterion(netD(fake), label)
        errG.backward()
        optimizerG.step()
        accumulate(netG_ema, netG, opt.ema_decay)

    print(f"[{epoch}/{opt.epochs}] Loss_D {(errD_real + errD_fake).item():.4f} Loss_G {errG.item():.4f}")
    with torch.no_grad():
        samples = netG_ema(fixed_noise)
    save_grid(samples, f"{opt.outf}/ema_epoch_{epoch:03d}.png")
