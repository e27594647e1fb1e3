"""Resume done in the right order: the model is placed on the device, the optimizer is built on
the placed parameters, then both states are restored (map_location onto the run's device)."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def restore(path, model, optimizer, device):
    ckpt = torch.load(path, map_location=device)
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    return ckpt["epoch"] + 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--ckpt", default="ckpt_ok.pt")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    start = restore(args.ckpt, model, optimizer, device) if os.path.exists(args.ckpt) else 0
    loader = DataLoader(TensorDataset(torch.randn(512, 16), torch.randint(0, 4, (512,))), batch_size=64)
    for epoch in range(start, args.epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, args.ckpt)
    print(loss.item())


if __name__ == "__main__":
    main()
