import os

import torch


def save_checkpoint(path, model, optimizer, epoch):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def load_checkpoint(path, device):
    """Load a checkpoint saved on any device onto `device`."""
    return torch.load(path, map_location=device)
