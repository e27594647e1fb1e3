"""EMA helpers, data generation and host-side conversions."""
import copy
import math

import torch


def moons(n, noise=0.05, generator=None):
    half = n // 2
    t = torch.rand(half, generator=generator) * math.pi
    upper = torch.stack([t.cos(), t.sin()], dim=1)
    lower = torch.stack([1 - t.cos(), 0.5 - t.sin()], dim=1)
    pts = torch.cat([upper, lower]) - torch.tensor([0.5, 0.25])
    return pts + noise * torch.randn(pts.shape, generator=generator)


def make_ema(model):
    """Frozen copy of `model`, on whatever device `model` is on now."""
    ema = copy.deepcopy(model)
    ema.requires_grad_(False)
    return ema.eval()


@torch.no_grad()
def ema_update(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p.detach(), alpha=1.0 - decay)
    for eb, b in zip(ema.buffers(), model.buffers()):
        eb.copy_(b)


def to_numpy(tensor):
    return tensor.detach().cpu().numpy()


def chamfer(a, b):
    d = torch.cdist(a, b)
    return (d.min(dim=1).values.mean() + d.min(dim=0).values.mean()).item()
