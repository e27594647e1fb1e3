import torch


def to_device(obj, device, keep_on_cpu=("lengths",)):
    """Move tensors in nested dicts/lists/tuples; keys in keep_on_cpu stay where they are."""
    if torch.is_tensor(obj):
        return obj.to(device, non_blocking=True)
    if isinstance(obj, dict):
        return {k: (v if k in keep_on_cpu else to_device(v, device, keep_on_cpu)) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_device(v, device, keep_on_cpu) for v in obj)
    return obj


class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n=1):
        self.sum += float(value) * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)
