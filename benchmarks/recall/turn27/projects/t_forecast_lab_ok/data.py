import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


class MinMaxScaler:
    def fit(self, x):
        self.lo, self.hi = x.min(axis=0), x.max(axis=0)
        return self

    def transform(self, x):
        return (x - self.lo) / (self.hi - self.lo + 1e-8)

    def inverse_target(self, y):
        return y * (self.hi[0] - self.lo[0] + 1e-8) + self.lo[0]


def toy_series(n=600, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    load = 50 + 10 * np.sin(2 * np.pi * t / 24) + rng.normal(0, 1, n)
    temp = 15 + 5 * np.sin(2 * np.pi * t / 168)
    return np.stack([load, temp], axis=1)


def windows(series, window, horizon):
    xs = [series[i:i + window] for i in range(len(series) - window - horizon + 1)]
    ys = [series[i + window:i + window + horizon, 0] for i in range(len(series) - window - horizon + 1)]
    return np.stack(xs).astype(np.float32), np.stack(ys).astype(np.float32)


def build_loaders(cfg, split=0.8):
    series = toy_series()
    cut = int(len(series) * split)
    scaler = MinMaxScaler().fit(series[:cut])
    scaled = scaler.transform(series)
    x_tr, y_tr = windows(scaled[:cut], cfg.window, cfg.horizon)
    x_te, y_te = windows(scaled[cut - cfg.window:], cfg.window, cfg.horizon)
    train = DataLoader(TensorDataset(torch.from_numpy(x_tr), torch.from_numpy(y_tr)),
                       batch_size=cfg.batch_size, shuffle=True)
    test = DataLoader(TensorDataset(torch.from_numpy(x_te), torch.from_numpy(y_te)),
                      batch_size=cfg.batch_size)
    return train, test, scaler
