import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def synthetic_sensor_data(n=4000, n_features=4, seed=7):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    daily = np.sin(2 * np.pi * t / 24)
    weekly = np.sin(2 * np.pi * t / 168)
    cols = [20 + 5 * daily + 2 * weekly + rng.normal(0, 0.5, n)]
    for k in range(1, n_features):
        cols.append(np.roll(cols[0], 3 * k) * (0.5 + 0.1 * k) + rng.normal(0, 0.3, n))
    return np.stack(cols, axis=1).astype(np.float32)


class StandardScaler:
    """Fit on the training split only; works on numpy arrays before they become tensors."""

    def fit(self, arr):
        self.mean_ = arr.mean(axis=0)
        self.std_ = arr.std(axis=0) + 1e-8
        return self

    def transform(self, arr):
        return (arr - self.mean_) / self.std_

    def inverse_target(self, arr, idx):
        return arr * self.std_[idx] + self.mean_[idx]


class WindowDataset(Dataset):
    def __init__(self, arr, lookback, horizon, target_index):
        self.x = torch.from_numpy(arr)
        self.L, self.H, self.k = lookback, horizon, target_index

    def __len__(self):
        return len(self.x) - self.L - self.H + 1

    def __getitem__(self, i):
        past = self.x[i:i + self.L]
        future = self.x[i + self.L:i + self.L + self.H, self.k:self.k + 1]
        return past, future


def make_loaders(arr, cfg):
    n = len(arr)
    a, b = int(cfg.splits[0] * n), int((cfg.splits[0] + cfg.splits[1]) * n)
    scaler = StandardScaler().fit(arr[:a])
    scaled = scaler.transform(arr).astype(np.float32)
    parts = {
        "train": scaled[:a],
        "val": scaled[a - cfg.lookback:b],
        "test": scaled[b - cfg.lookback:],
    }
    loaders = {
        name: DataLoader(WindowDataset(p, cfg.lookback, cfg.horizon, cfg.target_index),
                         batch_size=cfg.batch_size, shuffle=(name == "train"), drop_last=(name == "train"))
        for name, p in parts.items()
    }
    return loaders, scaler
