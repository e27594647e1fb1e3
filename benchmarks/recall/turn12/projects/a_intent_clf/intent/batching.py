"""Synthetic utterances, padding collate and a device helper.

Written from the threads where a batch helper moves the model inputs and
forgets the targets ("Fix tensors on the same device issue on train and test",
"Place evaluation data on device"): `to_device` only moves the keys the model's
forward takes, so `labels` stays on the CPU for whoever uses it next.
"""
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset

MODEL_INPUTS = ("input_ids", "attention_mask")


class SyntheticIntents(Dataset):
    """Each intent has a few keyword ids; utterances mix keywords with filler."""

    def __init__(self, n, vocab_size=300, n_intents=6, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.samples = []
        for _ in range(n):
            intent = int(torch.randint(0, n_intents, (1,), generator=g))
            length = int(torch.randint(5, 20, (1,), generator=g))
            ids = torch.randint(n_intents * 4 + 1, vocab_size, (length,), generator=g)
            keyword_slots = torch.randperm(length, generator=g)[:2]
            ids[keyword_slots] = 1 + intent * 4 + torch.randint(0, 4, (2,), generator=g)
            self.samples.append((ids, intent))

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return self.samples[i]


def collate(samples, pad_id=0):
    ids = pad_sequence([s[0] for s in samples], batch_first=True, padding_value=pad_id)
    return {
        "input_ids": ids,
        "attention_mask": (ids != pad_id).long(),
        "labels": torch.tensor([s[1] for s in samples], dtype=torch.long),
    }


def to_device(batch, device):
    """Move what the model consumes; everything else is returned as is."""
    return {k: (v.to(device, non_blocking=True) if k in MODEL_INPUTS else v) for k, v in batch.items()}
