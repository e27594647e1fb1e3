"""Vanilla GAN on flattened images: real/fake targets for the BCE loss are made each step.

Thread: https://github.com/Lightning-Universe/lightning-bolts/issues/30 (Using gpus gives error for
BasicGAN: Expected object of device type cuda but got device type cpu for argument #2 'target').
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

NZ = 16


def main():
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    G = nn.Sequential(nn.Linear(NZ, 64), nn.ReLU(), nn.Linear(64, 784), nn.Tanh()).to(device)
    D = nn.Sequential(nn.Linear(784, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1), nn.Sigmoid()).to(device)
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
    bce = nn.BCELoss()
    loader = DataLoader(TensorDataset(torch.rand(128, 784) * 2 - 1), batch_size=32, shuffle=True)
    for (real,) in loader:
        real = real.to(device)
        b = real.size(0)
        valid = torch.ones(b, 1)  # expect: DEV006
        fake = torch.zeros(b, 1)  # expect: DEV006
        z = torch.randn(b, NZ, device=device)
        gen = G(z)
        d_loss = bce(D(real), valid) + bce(D(gen.detach()), fake)
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = bce(D(gen), valid)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
    print(d_loss.item(), g_loss.item())


if __name__ == "__main__":
    main()
