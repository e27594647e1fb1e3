import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class ClickLog(Dataset):
    def __init__(self, n_users, n_items, n_events=4000, seed=0):
        rng = np.random.default_rng(seed)
        self.users = rng.integers(0, n_users, n_events)
        self.items = np.minimum(rng.zipf(1.3, n_events) - 1, n_items - 1)
        self.clicks = (rng.random(n_events) < 0.3).astype(np.float32)

    def __len__(self):
        return len(self.users)

    def __getitem__(self, i):
        return {"user": int(self.users[i]), "item": int(self.items[i]), "click": float(self.clicks[i])}


def make_loader(cfg, shuffle=True):
    ds = ClickLog(cfg.n_users, cfg.n_items)
    return ds, DataLoader(ds, batch_size=cfg.batch_size, shuffle=shuffle)


def ids_to_device(batch, device):
    """Move the id columns the embeddings need."""
    return batch["user"].to(device), batch["item"].to(device)
