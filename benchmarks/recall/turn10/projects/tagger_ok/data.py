"""Synthetic tagged sentences and the collate function that pads them; it returns the lengths as a
CPU int64 tensor because pack_padded_sequence wants them there.

Thread: https://github.com/pytorch/pytorch/issues/43227 ('lengths' argument should be a 1D CPU
int64 tensor).
"""
import random

import torch
from torch.utils.data import Dataset


class TaggedSentences(Dataset):
    def __init__(self, n, vocab_size, num_tags, seed=0):
        rng = random.Random(seed)
        self.rows = []
        for _ in range(n):
            words = [rng.randrange(1, vocab_size) for _ in range(rng.randint(4, 20))]
            self.rows.append((words, [w % num_tags for w in words]))

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def pad_batch(batch, pad_id, pad_tag):
    batch = sorted(batch, key=lambda r: len(r[0]), reverse=True)
    lengths = torch.tensor([len(words) for words, _ in batch], dtype=torch.long)
    width = int(lengths[0])
    words = torch.full((len(batch), width), pad_id, dtype=torch.long)
    tags = torch.full((len(batch), width), pad_tag, dtype=torch.long)
    for i, (w, t) in enumerate(batch):
        words[i, :len(w)] = torch.tensor(w)
        tags[i, :len(t)] = torch.tensor(t)
    return words, tags, lengths
