"""Synthetic query / passage / hard-negative triples, batching and the device helper.

Part of the c_dual_encoder_retrieval project (train.py lists the threads it was written
from). The helper moves the tensors it was told about in BATCH_KEYS; the hard negatives were
added to the batch later and never made it into that tuple.
"""
import random

import torch
from torch.utils.data import Dataset

VOCAB = 400
BATCH_KEYS = ("q_ids", "d_ids")


class TriplesDataset(Dataset):
    """A query shares three "topic" tokens with its passage; the hard negative shares one."""

    def __init__(self, n=600, seed=0, q_len=6, d_len=16):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            topic = [rng.randrange(1, VOCAB) for _ in range(3)]
            query = topic + [rng.randrange(1, VOCAB) for _ in range(q_len - 3)]
            passage = topic * 2 + [rng.randrange(1, VOCAB) for _ in range(d_len - 6)]
            negative = topic[:1] + [rng.randrange(1, VOCAB) for _ in range(d_len - 1)]
            rng.shuffle(passage)
            self.items.append((query, passage, negative))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    queries, passages, negatives = zip(*batch)
    return {
        "q_ids": torch.tensor(queries),
        "d_ids": torch.tensor(passages),
        "neg_ids": torch.tensor(negatives),
    }


def to_device(batch, device):
    """Return a copy of `batch` with the encoder inputs on `device`."""
    moved = dict(batch)
    for key in BATCH_KEYS:
        moved[key] = moved[key].to(device, non_blocking=True)
    return moved
