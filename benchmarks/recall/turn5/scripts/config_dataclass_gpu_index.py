"""Speech-command classifier configured by a dataclass; the GPU to use is a field of the config."""
import argparse
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    n_mels: int = 40
    classes: int = 12
    epochs: int = 5
    batch_size: int = 64
    gpu: int = 1  # expect: DEV018

    @property
    def device(self):
        return torch.device(f"cuda:{self.gpu}" if torch.cuda.is_available() else "cpu")


class KWS(nn.Module):
    def __init__(self, n_mels, classes):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mels, 64, 5, padding=2), nn.ReLU(), nn.Conv1d(64, 64, 5, padding=2), nn.ReLU())
        self.fc = nn.Linear(64, classes)

    def forward(self, x):
        return self.fc(self.conv(x).mean(-1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    cfg = TrainConfig(epochs=parser.parse_args().epochs)
    device = cfg.device
    feats = torch.randn(3000, cfg.n_mels, 101)
    labels = torch.randint(0, cfg.classes, (3000,))
    loader = DataLoader(TensorDataset(feats, labels), batch_size=cfg.batch_size, shuffle=True)
    model = KWS(cfg.n_mels, cfg.classes).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(cfg.epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
