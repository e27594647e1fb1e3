"""Toy topic-classification corpus and its padding collate function; train.py binds the padding
arguments with functools.partial.

Thread: https://github.com/InternLM/xtuner/pull/371 (attention_mask built in the default
collate_fn).
"""
import random

import torch
from torch.utils.data import Dataset


class TopicCorpus(Dataset):
    def __init__(self, n, vocab_size, num_labels, seed=0):
        rng = random.Random(seed)
        self.rows = []
        for _ in range(n):
            label = rng.randrange(num_labels)
            length = rng.randint(8, 40)
            lo = 1 + label * (vocab_size - 1) // num_labels
            tokens = [rng.randrange(lo, lo + 200) if rng.random() < 0.6 else rng.randrange(1, vocab_size)
                      for _ in range(length)]
            self.rows.append((tokens, label))

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def pad_collate(batch, pad_id, max_len):
    width = min(max_len, max(len(tokens) for tokens, _ in batch))
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    mask = torch.zeros(len(batch), width, dtype=torch.long)
    for i, (tokens, _) in enumerate(batch):
        tokens = tokens[:width]
        ids[i, :len(tokens)] = torch.tensor(tokens)
        mask[i, :len(tokens)] = 1
    labels = torch.tensor([label for _, label in batch])
    return ids, mask, labels
