"""Train and validate the direct multi-horizon forecaster.

    python main.py --epochs 5 --horizon 24
"""
import argparse

import torch

from forecast.config import ForecastConfig
from forecast.data import make_loaders, synthetic_demand
from forecast.trainer import Trainer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--horizon", type=int, default=12)
    ap.add_argument("--window", type=int, default=48)
    ap.add_argument("--save", default=None)
    args = ap.parse_args()

    torch.manual_seed(0)
    cfg = ForecastConfig(epochs=args.epochs, horizon=args.horizon, window=args.window)
    values = synthetic_demand(n_series=cfg.n_series)
    train_loader, val_loader, scaler = make_loaders(cfg, values)
    trainer = Trainer(cfg, scaler)
    report = trainer.fit(train_loader, val_loader)
    print("final:", report)
    if args.save:
        torch.save({"model": trainer.model.state_dict(), "scaler": scaler, "horizon": cfg.horizon}, args.save)


if __name__ == "__main__":
    main()
