"""Synthetic utterances: random log-mel frames and label sequences of varying length."""
import torch
from torch.utils.data import DataLoader


def make_items(n, n_mels, n_symbols, seed=0):
    g = torch.Generator().manual_seed(seed)
    items = []
    for _ in range(n):
        t = int(torch.randint(20, 40, (1,), generator=g))
        u = int(torch.randint(2, 6, (1,), generator=g))
        items.append((torch.randn(t, n_mels, generator=g), torch.randint(1, n_symbols, (u,), generator=g)))
    return items


def collate(items):
    feats = torch.nn.utils.rnn.pad_sequence([f for f, _ in items], batch_first=True)
    feat_lens = torch.tensor([f.size(0) for f, _ in items])
    targets = torch.cat([t for _, t in items])
    target_lens = torch.tensor([t.size(0) for _, t in items])
    return feats, feat_lens, targets, target_lens


def make_loader(n, cfg, shuffle=True):
    return DataLoader(make_items(n, cfg.n_mels, cfg.n_symbols), batch_size=cfg.batch_size,
                      shuffle=shuffle, collate_fn=collate)
