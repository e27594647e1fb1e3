"""DCGAN loop with every tensor on the chosen device: real batch moved, noise and labels created there."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
nz = 16


def weights_init(m):
    if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
        nn.init.normal_(m.weight, 0.0, 0.02)
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.normal_(m.weight, 1.0, 0.02)
        nn.init.zeros_(m.bias)


netG = nn.Sequential(
    nn.ConvTranspose2d(nz, 32, 4, 1, 0, bias=False), nn.BatchNorm2d(32), nn.ReLU(True),
    nn.ConvTranspose2d(32, 16, 4, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(True),
    nn.ConvTranspose2d(16, 1, 4, 2, 1, bias=False), nn.Tanh(),
).to(device)
netD = nn.Sequential(
    nn.Conv2d(1, 16, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(16, 32, 4, 2, 1, bias=False), nn.BatchNorm2d(32), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(32, 1, 4, 1, 0, bias=False), nn.Flatten(0),
).to(device)
netG.apply(weights_init)
netD.apply(weights_init)

criterion = nn.BCEWithLogitsLoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
loader = DataLoader(TensorDataset(torch.rand(24, 1, 16, 16) * 2 - 1), batch_size=8, shuffle=True)
fixed_noise = torch.randn(4, nz, 1, 1, device=device)

for epoch in range(1):
    for i, (real,) in enumerate(loader):
        real = real.to(device)
        b = real.size(0)
        ones = torch.ones(b, device=device)
        zeros = torch.zeros(b, device=device)
        noise = torch.randn(b, nz, 1, 1, device=device)
        fake = netG(noise)

        optD.zero_grad()
        lossD = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
        lossD.backward()
        optD.step()

        optG.zero_grad()
        lossG = criterion(netD(fake), ones)
        lossG.backward()
        optG.step()
        print(f"epoch {epoch} it {i} D {lossD.item():.3f} G {lossG.item():.3f}")

with torch.no_grad():
    grid = netG(fixed_noise).cpu()
print("samples", tuple(grid.shape))
