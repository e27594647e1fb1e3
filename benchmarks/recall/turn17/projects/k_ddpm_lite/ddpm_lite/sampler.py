import torch

from .schedule import extract


@torch.no_grad()
def ddim_sample(model, schedule, shape, steps=50, eta=0.0, device=None, generator=None):
    device = device or next(model.parameters()).device
    T = schedule.T
    ts = torch.linspace(T - 1, 0, steps).long().tolist()
    x = torch.randn(shape, device=device, generator=generator)
    n = x.dim()
    for k, i in enumerate(ts):
        t = torch.full((shape[0],), i, device=device, dtype=torch.long)
        eps = model(x, t)
        a_t = extract(schedule.alphas_cumprod, t, n)
        if k + 1 < len(ts):
            a_prev = extract(schedule.alphas_cumprod, torch.full_like(t, ts[k + 1]), n)
        else:
            a_prev = torch.ones_like(a_t)
        x0 = ((x - (1 - a_t).sqrt() * eps) / a_t.sqrt()).clamp(-1, 1)
        sigma = eta * ((1 - a_prev) / (1 - a_t) * (1 - a_t / a_prev)).sqrt()
        x = a_prev.sqrt() * x0 + (1 - a_prev - sigma ** 2).clamp(min=0).sqrt() * eps
        if eta > 0 and k + 1 < len(ts):
            x = x + sigma * torch.randn(x.shape, device=device, generator=generator)
    return x


def to_uint8_grid(x, nrow=4):
    """(B, C, H, W) in [-1, 1] -> numpy uint8 grid for saving/plotting."""
    x = ((x.clamp(-1, 1) + 1) * 127.5).round().to(torch.uint8).cpu()
    b, c, h, w = x.shape
    ncol = (b + nrow - 1) // nrow
    grid = torch.zeros(c, ncol * h, nrow * w, dtype=torch.uint8)
    for idx in range(b):
        r, col = divmod(idx, nrow)
        grid[:, r * h:(r + 1) * h, col * w:(col + 1) * w] = x[idx]
    return grid.permute(1, 2, 0).numpy()
