"""Helpers so the same script runs with `python train.py` and with `torchrun`."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def setup_distributed():
    """Returns (rank, world_size, device)."""
    if "RANK" not in os.environ:
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        return 0, 1, device

    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend=backend, rank=rank, world_size=world_size)
    if torch.cuda.is_available():
        device = torch.device("cuda:0")  # expect: DEV013
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
    return rank, world_size, device


def wrap_model(model, device):
    if dist.is_available() and dist.is_initialized():
        device_ids = [device.index] if device.type == "cuda" else None
        model = DDP(model, device_ids=device_ids)  # expect: DEV014
    return model.to(device)


def unwrap(model):
    return model.module if isinstance(model, DDP) else model


def is_main_process():
    return not dist.is_initialized() or dist.get_rank() == 0


def cleanup():
    if dist.is_initialized():
        dist.destroy_process_group()
