"""Small helpers around torch.distributed."""
import torch
import torch.distributed as dist


def is_dist():
    return dist.is_available() and dist.is_initialized()


def get_rank():
    return dist.get_rank() if is_dist() else 0


def is_main_process():
    return get_rank() == 0


def get_device():
    """The device this process trains on."""
    return torch.device("cuda:0" if torch.cuda.is_available() else "cpu")  # expect: DEV013


def reduce_mean(value, device):
    t = torch.tensor([float(value)], device=device)
    if is_dist():
        dist.all_reduce(t)
        t /= dist.get_world_size()
    return t.item()


def save_on_master(state, path):
    if is_main_process():
        torch.save(state, path)


def load_checkpoint(path):
    return torch.load(path)  # expect: DEV008
