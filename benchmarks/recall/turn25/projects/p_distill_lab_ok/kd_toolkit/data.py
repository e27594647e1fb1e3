import torch
from torch.utils.data import DataLoader, TensorDataset


def synthetic_topics(cfg, n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, cfg.vocab, (n, cfg.seq_len), generator=g)
    labels = (ids[:, -1] % cfg.num_classes).long()
    return TensorDataset(ids, labels)


def make_loaders(cfg):
    train = DataLoader(synthetic_topics(cfg, 256, 0), batch_size=cfg.batch_size, shuffle=True)
    valid = DataLoader(synthetic_topics(cfg, 96, 1), batch_size=cfg.batch_size)
    return train, valid
