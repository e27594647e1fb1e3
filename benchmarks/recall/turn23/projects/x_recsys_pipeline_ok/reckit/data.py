import torch
from torch.utils.data import Dataset


class Sessions(Dataset):
    """Left-padded item sequences (0 = padding) and the next item to predict."""

    def __init__(self, n_items, n_sessions=200, max_len=12, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.seqs = torch.zeros(n_sessions, max_len, dtype=torch.long)
        self.targets = torch.zeros(n_sessions, dtype=torch.long)
        for s in range(n_sessions):
            length = int(torch.randint(3, max_len + 1, (1,), generator=g))
            items = torch.randint(1, n_items, (length + 1,), generator=g)
            self.seqs[s, max_len - length:] = items[:-1]
            self.targets[s] = items[-1]

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return {"seq": self.seqs[i], "target": self.targets[i]}

    def item_counts(self, n_items):
        return torch.bincount(torch.cat([self.seqs.flatten(), self.targets]), minlength=n_items).float()
