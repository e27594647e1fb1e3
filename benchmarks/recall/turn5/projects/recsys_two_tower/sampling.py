"""Negative sampling for implicit-feedback training."""
import torch


def with_negatives(pos_items, n_items, k, generator=None):
    """Column 0 is the positive item, columns 1..k are uniform random negatives."""
    negs = torch.randint(0, n_items, (pos_items.size(0), k), generator=generator)  # expect: DEV006
    return torch.cat([pos_items[:, None], negs], dim=1)
