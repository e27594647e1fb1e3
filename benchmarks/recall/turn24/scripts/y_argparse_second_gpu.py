"""Train a denoising autoencoder on synthetic signals.

GPU 0 on our workstation runs the notebook server, so training defaults to the second card.
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def parse_args():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--device", default="cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--noise", type=float, default=0.3)
    p.add_argument("--batch-size", type=int, default=64)
    return p.parse_args()


class DAE(nn.Module):
    def __init__(self, n=64, code=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(n, 32), nn.ReLU(), nn.Linear(32, code))
        self.dec = nn.Sequential(nn.Linear(code, 32), nn.ReLU(), nn.Linear(32, n))

    def forward(self, x):
        return self.dec(self.enc(x))


def signals(n=512, length=64):
    t = torch.linspace(0, 1, length)
    g = torch.Generator().manual_seed(0)
    freq = torch.randint(1, 6, (n, 1), generator=g).float()
    phase = torch.rand(n, 1, generator=g) * 6.28
    return torch.sin(2 * 3.14159 * freq * t + phase)


def main():
    args = parse_args()
    device = torch.device(args.device)
    loader = DataLoader(TensorDataset(signals()), batch_size=args.batch_size, shuffle=True)
    model = DAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.MSELoss()

    for epoch in range(args.epochs):
        running = 0.0
        for (clean,) in loader:
            model = model.to(device)  # expect: DEV007
            model.train()
            clean = clean.to(device)
            noisy = clean + args.noise * torch.randn_like(clean)
            loss = loss_fn(model(noisy), clean)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: recon {running / len(loader):.4f}")


if __name__ == "__main__":
    main()
