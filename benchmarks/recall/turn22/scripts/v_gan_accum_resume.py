"""Small GAN on 1-D Gaussian-mixture data with gradient accumulation for both
players and resumable checkpoints (models + both optimizers)."""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

LATENT = 8


def mixture(n=2048):
    comp = torch.randint(0, 3, (n,))
    return (torch.tensor([-2.0, 0.0, 3.0])[comp] + 0.3 * torch.randn(n)).unsqueeze(1)


class G(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LATENT, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64), nn.LeakyReLU(0.2),
                                 nn.Linear(64, 1))

    def forward(self, z):
        return self.net(z)


class D(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64), nn.LeakyReLU(0.2),
                                 nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--accum", type=int, default=4)
    ap.add_argument("--ckpt", default="/tmp/v_gan_accum.pt")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    netG, netD = G(), D()
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    start = 0
    if args.resume and os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt, map_location="cpu")
        netG.load_state_dict(ckpt["G"])
        netD.load_state_dict(ckpt["D"])
        optG.load_state_dict(ckpt["optG"])  # expect: DEV017
        optD.load_state_dict(ckpt["optD"])  # expect: DEV017
        start = ckpt["epoch"] + 1
    netG.to(device)
    netD.to(device)

    criterion = nn.BCEWithLogitsLoss()
    loader = DataLoader(TensorDataset(mixture()), batch_size=64, shuffle=True, drop_last=True)
    for epoch in range(start, start + args.epochs):
        optD.zero_grad()
        optG.zero_grad()
        for i, (real,) in enumerate(loader):
            real = real.to(device)
            bs = real.size(0)
            ones = torch.ones(bs, 1)  # expect: DEV006
            zeros = torch.zeros(bs, 1, device=device)

            z = torch.randn(bs, LATENT, device=device)
            fake = netG(z)
            lossD = (criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)) / (2 * args.accum)
            lossD.backward()

            lossG = criterion(netD(fake), ones) / args.accum
            netD.requires_grad_(False)
            lossG.backward()
            netD.requires_grad_(True)

            if (i + 1) % args.accum == 0:
                optD.step()
                optG.step()
                optD.zero_grad()
                optG.zero_grad()
        with torch.no_grad():
            s = netG(torch.randn(1000, LATENT, device=device)).cpu()
        print(f"epoch {epoch}: lossD={lossD.item() * 2 * args.accum:.3f} lossG={lossG.item() * args.accum:.3f} "
              f"sample mean={s.mean():.2f} std={s.std():.2f}")
        torch.save({"G": netG.state_dict(), "D": netD.state_dict(), "optG": optG.state_dict(),
                    "optD": optD.state_dict(), "epoch": epoch}, args.ckpt)


if __name__ == "__main__":
    main()
