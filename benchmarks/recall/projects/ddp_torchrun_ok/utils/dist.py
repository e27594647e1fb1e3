"""torch.distributed helpers; a plain single process when not started by torchrun."""
import os

import torch
import torch.distributed as dist


def init_distributed():
    """Returns (rank, world_size, local_rank)."""
    if "LOCAL_RANK" not in os.environ:
        return 0, 1, 0
    local_rank = int(os.environ["LOCAL_RANK"])
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
    dist.init_process_group(backend="nccl" if torch.cuda.is_available() else "gloo")
    return dist.get_rank(), dist.get_world_size(), local_rank


def device_for(local_rank):
    if torch.cuda.is_available():
        return torch.device("cuda", local_rank)
    return torch.device("cpu")


def is_dist():
    return dist.is_available() and dist.is_initialized()


def all_reduce_sum(t):
    if is_dist():
        dist.all_reduce(t)
    return t


def load_checkpoint(path, device):
    return torch.load(path, map_location=device)


def cleanup():
    if is_dist():
        dist.destroy_process_group()
