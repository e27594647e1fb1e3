import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def synthetic_demand(hours=2400, n_series=3, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(hours)
    daily = np.sin(2 * np.pi * t / 24)[:, None]
    weekly = np.sin(2 * np.pi * t / 168)[:, None]
    level = rng.uniform(50, 100, size=(1, n_series))
    y = level * (1 + 0.3 * daily + 0.1 * weekly) + rng.normal(scale=2.0, size=(hours, n_series))
    return y.astype(np.float32)


class HorizonWindows(Dataset):
    """x: (window, n_series) scaled history, y: (horizon, n_series) scaled targets."""

    def __init__(self, values, window, horizon, mean, std):
        self.values = torch.from_numpy((values - mean) / std)
        self.window, self.horizon = window, horizon

    def __len__(self):
        return len(self.values) - self.window - self.horizon + 1

    def __getitem__(self, i):
        x = self.values[i:i + self.window]
        y = self.values[i + self.window:i + self.window + self.horizon]
        return x, y


def make_loaders(cfg, values, val_frac=0.2):
    split = int(len(values) * (1 - val_frac))
    train, val = values[:split], values[split - cfg.window:]
    mean, std = train.mean(0), train.std(0)
    train_ds = HorizonWindows(train, cfg.window, cfg.horizon, mean, std)
    val_ds = HorizonWindows(val, cfg.window, cfg.horizon, mean, std)
    return (DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True, drop_last=True),
            DataLoader(val_ds, batch_size=256),
            (mean, std))
