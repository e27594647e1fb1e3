import torch
from torch.utils.data import DataLoader, Dataset


class TicketDataset(Dataset):
    def __init__(self, cfg, n=400, seed=0):
        g = torch.Generator().manual_seed(seed)
        probs = torch.tensor(cfg.class_counts, dtype=torch.float)
        self.labels = torch.multinomial(probs / probs.sum(), n, replacement=True, generator=g)
        lengths = torch.randint(8, cfg.max_len, (n,), generator=g)
        self.ids = torch.randint(1, cfg.vocab_size, (n, cfg.max_len), generator=g)
        self.ids[:, 0] = self.labels + 1
        self.mask = (torch.arange(cfg.max_len)[None] < lengths[:, None]).long()
        self.ids = self.ids * self.mask

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": self.mask[i], "labels": self.labels[i]}


def make_loader(cfg, split):
    ds = TicketDataset(cfg, n=400 if split == "train" else 100, seed=0 if split == "train" else 1)
    return DataLoader(ds, batch_size=cfg.batch_size, shuffle=split == "train")


def to_device(batch, device):
    return {k: v.to(device, non_blocking=True) for k, v in batch.items()}
