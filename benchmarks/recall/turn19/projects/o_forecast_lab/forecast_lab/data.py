import numpy as np
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset


class SeriesScaler:
    """Per-series standardization fitted on the training part only."""

    def fit(self, panel):
        self.mean = panel.mean(axis=1, keepdims=True)
        self.std = panel.std(axis=1, keepdims=True) + 1e-6
        return self

    def transform(self, panel):
        return (panel - self.mean) / self.std

    def inverse_transform(self, values, series_ids):
        return values * self.std[series_ids] + self.mean[series_ids]


def make_panel(n_series, length, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(length)
    level = rng.uniform(50, 200, (n_series, 1))
    season = rng.uniform(5, 20, (n_series, 1)) * np.sin(2 * np.pi * t / 24 + rng.uniform(0, 6, (n_series, 1)))
    return (level + season + rng.normal(0, 2, (n_series, length))).astype(np.float32)


class VariableHistoryDataset(Dataset):
    """Each sample: a history of random length, the next `horizon` values, and the series id."""

    def __init__(self, scaled_panel, cfg, n_samples, seed=0):
        self.panel = scaled_panel
        self.cfg = cfg
        rng = np.random.default_rng(seed)
        self.index = []
        for _ in range(n_samples):
            s = rng.integers(0, scaled_panel.shape[0])
            hist = rng.integers(cfg.min_history, cfg.max_history + 1)
            end = rng.integers(hist, scaled_panel.shape[1] - cfg.horizon)
            self.index.append((s, end - hist, end))

    def __len__(self):
        return len(self.index)

    def __getitem__(self, i):
        s, start, end = self.index[i]
        hist = torch.from_numpy(self.panel[s, start:end]).unsqueeze(-1)
        target = torch.from_numpy(self.panel[s, end:end + self.cfg.horizon])
        return hist, target, s


def collate(batch):
    hists, targets, sids = zip(*batch)
    lengths = torch.tensor([h.shape[0] for h in hists], dtype=torch.long)
    return {
        "history": pad_sequence(hists, batch_first=True),
        "lengths": lengths,
        "target": torch.stack(targets),
        "series_id": torch.tensor(sids, dtype=torch.long),
    }


def to_device(batch, device):
    """Everything except `lengths`, which pack_padded_sequence wants on the cpu."""
    return {k: (v if k == "lengths" else v.to(device, non_blocking=True)) for k, v in batch.items()}
