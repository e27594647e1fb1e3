"""Small GAN with gradient accumulation and resumable checkpoints; both models
are on the device before their optimizers are built and their state loaded."""
import argparse
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

LATENT = 8


def mixture(n=2048):
    comp = torch.randint(0, 3, (n,))
    return (torch.tensor([-2.0, 0.0, 3.0])[comp] + 0.3 * torch.randn(n)).unsqueeze(1)


def mlp(n_in):
    return nn.Sequential(nn.Linear(n_in, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64), nn.LeakyReLU(0.2),
                         nn.Linear(64, 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--accum", type=int, default=4)
    ap.add_argument("--ckpt", default="/tmp/v_gan_accum_ok.pt")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    netG, netD = mlp(LATENT).to(device), mlp(1).to(device)
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    start = 0
    if args.resume and os.path.exists(args.ckpt):
        ckpt = torch.load(args.ckpt, map_location=device)
        netG.load_state_dict(ckpt["G"])
        netD.load_state_dict(ckpt["D"])
        optG.load_state_dict(ckpt["optG"])
        optD.load_state_dict(ckpt["optD"])
        start = ckpt["epoch"] + 1

    criterion = nn.BCEWithLogitsLoss()
    loader = DataLoader(TensorDataset(mixture()), batch_size=64, shuffle=True, drop_last=True)
    for epoch in range(start, start + args.epochs):
        optD.zero_grad()
        optG.zero_grad()
        for i, (real,) in enumerate(loader):
            real = real.to(device)
            bs = real.size(0)
            ones = torch.ones(bs, 1, device=device)
            zeros = torch.zeros_like(ones)

            fake = netG(torch.randn(bs, LATENT, device=device))
            lossD = (criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)) / (2 * args.accum)
            lossD.backward()

            netD.requires_grad_(False)
            lossG = criterion(netD(fake), ones) / args.accum
            lossG.backward()
            netD.requires_grad_(True)

            if (i + 1) % args.accum == 0:
                optD.step()
                optG.step()
                optD.zero_grad()
                optG.zero_grad()
        with torch.no_grad():
            s = netG(torch.randn(1000, LATENT, device=device)).cpu()
        print(f"epoch {epoch}: lossD={lossD.item() * 2 * args.accum:.3f} sample mean={s.mean():.2f} std={s.std():.2f}")
        torch.save({"G": netG.state_dict(), "D": netD.state_dict(), "optG": optG.state_dict(),
                    "optD": optD.state_dict(), "epoch": epoch}, args.ckpt)


if __name__ == "__main__":
    main()
