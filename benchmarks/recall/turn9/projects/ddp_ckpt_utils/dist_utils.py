"""Process-group helpers for torchrun jobs.

Thread: https://github.com/pytorch/examples/issues/969 (DDP: every process allocates memory on GPU 0).
"""
import os

import torch
import torch.distributed as dist


def setup():
    local_rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("nccl")
    torch.cuda.set_device(local_rank)
    return local_rank


def cleanup():
    dist.destroy_process_group()
