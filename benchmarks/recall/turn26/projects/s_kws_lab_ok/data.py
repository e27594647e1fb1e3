from functools import partial

import torch
from torch.utils.data import DataLoader, Dataset


class SyntheticKWS(Dataset):
    """Log-mel-like clips of variable length; the word id shifts a band of mel bins."""

    def __init__(self, n, n_mels, max_frames, n_words, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            word = int(torch.randint(0, n_words, (1,), generator=g))
            t = int(torch.randint(max_frames // 2, max_frames + 1, (1,), generator=g))
            x = torch.randn(n_mels, t, generator=g)
            x[word * 3: word * 3 + 4] += 1.5
            self.items.append((x, word))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def pad_collate(batch, max_frames):
    feats = torch.zeros(len(batch), batch[0][0].size(0), max_frames)
    for i, (x, _) in enumerate(batch):
        feats[i, :, : x.size(1)] = x
    labels = torch.tensor([w for _, w in batch])
    return feats, labels


def make_loaders(cfg):
    collate = partial(pad_collate, max_frames=cfg.frames)
    train = SyntheticKWS(320, cfg.n_mels, cfg.frames, cfg.n_words, seed=0)
    val = SyntheticKWS(80, cfg.n_mels, cfg.frames, cfg.n_words, seed=1)
    return (DataLoader(train, batch_size=cfg.batch_size, shuffle=True, collate_fn=collate),
            DataLoader(val, batch_size=cfg.batch_size, collate_fn=collate))
