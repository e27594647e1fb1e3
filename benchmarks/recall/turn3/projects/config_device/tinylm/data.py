"""Random-window batches from a uint16 token file."""
import numpy as np
import torch


def get_batch(tokens: np.ndarray, block_size: int, batch_size: int, device):
    ix = np.random.randint(0, len(tokens) - block_size - 1, size=batch_size)
    x = torch.from_numpy(np.stack([tokens[i:i + block_size] for i in ix]).astype(np.int64))
    y = torch.from_numpy(np.stack([tokens[i + 1:i + 1 + block_size] for i in ix]).astype(np.int64))
    return x.to(device, non_blocking=True), y.to(device, non_blocking=True)
