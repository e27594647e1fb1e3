import random

import torch
from torch.utils.data import DataLoader

MODEL_INPUTS = ("input_ids", "attention_mask")


def synthetic_examples(n, cfg, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        label = rng.randrange(cfg.num_labels)
        length = rng.randint(4, 12)
        ids = [rng.randrange(1 + 30 * label, 30 * label + 31) % (cfg.vocab_size - 1) + 1 for _ in range(length)]
        out.append((ids, label))
    return out


def collate(examples):
    width = max(len(ids) for ids, _ in examples)
    input_ids = torch.zeros(len(examples), width, dtype=torch.long)
    attention_mask = torch.zeros(len(examples), width, dtype=torch.long)
    for i, (ids, _) in enumerate(examples):
        input_ids[i, :len(ids)] = torch.tensor(ids)
        attention_mask[i, :len(ids)] = 1
    labels = torch.tensor([label for _, label in examples])
    return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


def move_inputs(batch, device):
    """Return the model inputs on the device, and the labels."""
    inputs = {k: batch[k].to(device, non_blocking=True) for k in MODEL_INPUTS}
    return inputs, batch["labels"]


def make_loaders(cfg):
    train = DataLoader(synthetic_examples(64, cfg, 0), batch_size=cfg.batch_size, shuffle=True, collate_fn=collate)
    val = DataLoader(synthetic_examples(24, cfg, 1), batch_size=cfg.batch_size, collate_fn=collate)
    return train, val
