"""Image-classification script whose --device default names the second GPU."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    p.add_argument("--epochs", type=int, default=2)
    return p.parse_args()


def main():
    args = parse_args()
    device = torch.device(args.device)
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 14 * 14, 10)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(args.epochs):
        x = torch.randn(8, 3, 16, 16, device=device)
        y = torch.randint(0, 10, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
