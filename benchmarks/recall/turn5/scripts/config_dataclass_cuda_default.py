"""Tabular autoencoder for anomaly detection, configured through a dataclass read from the
command line with simple_parsing-style overrides."""
import argparse
from dataclasses import asdict, dataclass, fields

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    n_features: int = 24
    latent: int = 6
    batch_size: int = 128
    epochs: int = 10
    lr: float = 1e-3
    device: str = "cuda"  # expect: DEV001
    threshold_quantile: float = 0.99


def parse() -> Config:
    parser = argparse.ArgumentParser()
    for f in fields(Config):
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=f.default)
    return Config(**vars(parser.parse_args()))


class AE(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(cfg.n_features, 32), nn.ReLU(), nn.Linear(32, cfg.latent))
        self.dec = nn.Sequential(nn.Linear(cfg.latent, 32), nn.ReLU(), nn.Linear(32, cfg.n_features))

    def forward(self, x):
        return self.dec(self.enc(x))


def main():
    cfg = parse()
    print(asdict(cfg))
    x = torch.from_numpy(np.random.default_rng(0).normal(size=(5000, cfg.n_features)).astype(np.float32))
    loader = DataLoader(TensorDataset(x), batch_size=cfg.batch_size, shuffle=True)
    model = AE(cfg).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for epoch in range(cfg.epochs):
        for (xb,) in loader:
            xb = xb.to(cfg.device)
            loss = (model(xb) - xb).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        err = (model(x.to(cfg.device)) - x.to(cfg.device)).pow(2).mean(1)
    print("threshold", torch.quantile(err, cfg.threshold_quantile).item())


if __name__ == "__main__":
    main()
