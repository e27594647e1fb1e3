"""Small DCGAN on random 16x16 images, with checkpoint resume."""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class G(nn.Module):
    def __init__(self, nz):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, 32, 4, 1, 0), nn.BatchNorm2d(32), nn.ReLU(True),
            nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.BatchNorm2d(16), nn.ReLU(True),
            nn.ConvTranspose2d(16, 1, 4, 2, 1), nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class D(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(1, 16, 4, 2, 1), nn.LeakyReLU(0.2, True),
            nn.Conv2d(16, 32, 4, 2, 1), nn.LeakyReLU(0.2, True),
            nn.Conv2d(32, 1, 4, 1, 0), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x).view(-1)


parser = argparse.ArgumentParser()
parser.add_argument("--nz", type=int, default=16)
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--ckpt", default="t_dcgan_ok_ckpt.pt")
parser.add_argument("--resume", action="store_true")
opt = parser.parse_args()

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
data = TensorDataset(torch.rand(64, 1, 16, 16) * 2 - 1)
loader = DataLoader(data, batch_size=16, shuffle=True)

netG, netD = G(opt.nz).to(device), D().to(device)
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
start_epoch = 0
if opt.resume and os.path.exists(opt.ckpt):
    state = torch.load(opt.ckpt, map_location=device)
    netG.load_state_dict(state["G"])
    netD.load_state_dict(state["D"])
    optG.load_state_dict(state["optG"])
    optD.load_state_dict(state["optD"])
    start_epoch = state["epoch"] + 1

criterion = nn.BCELoss()
for epoch in range(start_epoch, start_epoch + opt.epochs):
    for i, (real,) in enumerate(loader):
        real = real.to(device)
        b = real.size(0)
        label = torch.full((b,), 1.0, device=device)
        out = netD(real)
        errD_real = criterion(out, label)
        noise = torch.randn(b, opt.nz, 1, 1, device=device)
        fake = netG(noise)
        errD_fake = criterion(netD(fake.detach()), torch.zeros_like(label))
        optD.zero_grad()
        (errD_real + errD_fake).backward()
        optD.step()

        errG = criterion(netD(fake), label)
        optG.zero_grad()
        errG.backward()
        optG.step()
    print(f"epoch {epoch} D={errD_real.item() + errD_fake.item():.3f} G={errG.item():.3f}")

torch.save({"G": netG.state_dict(), "D": netD.state_dict(), "optG": optG.state_dict(),
            "optD": optD.state_dict(), "epoch": epoch}, opt.ckpt)
