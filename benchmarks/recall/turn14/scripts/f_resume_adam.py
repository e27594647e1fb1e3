"""House-price regressor with checkpoint/resume.

First run trains a couple of epochs and writes a checkpoint; pass --resume to
continue from it (the demo does both in one go when run without arguments).
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def housing_table(n=1500, seed=0):
    rng = np.random.default_rng(seed)
    area = rng.uniform(30, 250, n)
    rooms = rng.integers(1, 7, n)
    age = rng.uniform(0, 80, n)
    dist = rng.uniform(0.5, 30, n)
    price = 2.2 * area + 15 * rooms - 0.8 * age - 4 * dist + rng.normal(0, 20, n)
    X = np.stack([area / 100, rooms / 3, age / 40, dist / 10], axis=1).astype(np.float32)
    y = (price / 100).astype(np.float32)
    return TensorDataset(torch.from_numpy(X), torch.from_numpy(y).unsqueeze(1))


class PriceNet(nn.Module):
    def __init__(self, n_in=4, hidden=64):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_in, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.layers(x)


class Trainer:
    def __init__(self, model, lr, ckpt_path):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
        self.ckpt_path = ckpt_path
        self.start_epoch = 0

    def save(self, epoch):
        torch.save(
            {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(), "epoch": epoch},
            self.ckpt_path,
        )

    def resume(self):
        ckpt = torch.load(self.ckpt_path, map_location="cpu")
        self.model.load_state_dict(ckpt["model"])
        self.optimizer.load_state_dict(ckpt["optimizer"])  # expect: DEV017
        self.start_epoch = ckpt["epoch"] + 1
        print(f"resumed from epoch {ckpt['epoch']}")

    def fit(self, loader, epochs, device):
        loss_fn = nn.SmoothL1Loss()
        for epoch in range(self.start_epoch, self.start_epoch + epochs):
            self.model.train()
            total = 0.0
            for x, y in loader:
                x, y = x.to(device), y.to(device)
                loss = loss_fn(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += loss.item() * x.size(0)
            print(f"epoch {epoch}  loss {total / len(loader.dataset):.4f}")
            self.save(epoch)


def run(resume, epochs, ckpt_path):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(housing_table(), batch_size=64, shuffle=True)
    model = PriceNet()
    trainer = Trainer(model, lr=3e-3, ckpt_path=ckpt_path)
    if resume:
        trainer.resume()
    model.to(device)
    trainer.fit(loader, epochs, device)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--ckpt", default=os.path.join(tempfile.gettempdir(), "price_net.pt"))
    parser.add_argument("--demo", action="store_true", default=True)
    args = parser.parse_args()
    if args.demo and not args.resume:
        run(False, args.epochs, args.ckpt)
        run(True, args.epochs, args.ckpt)
    else:
        run(args.resume, args.epochs, args.ckpt)


if __name__ == "__main__":
    main()
