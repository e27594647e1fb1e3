import torch
from torch.utils.data import DataLoader, TensorDataset


def _windows(n, cfg, generator):
    probs = torch.tensor([0.55, 0.25, 0.13, 0.07])
    y = torch.multinomial(probs, n, replacement=True, generator=generator)
    t = torch.linspace(0, 6.28, cfg.window)
    freq = (y.float() + 1).unsqueeze(1)
    base = torch.sin(freq * t)  # class decides the dominant frequency
    x = base.unsqueeze(1).repeat(1, cfg.in_channels, 1)
    x = x + 0.4 * torch.randn(n, cfg.in_channels, cfg.window, generator=generator)
    return x, y


def make_loaders(cfg):
    g = torch.Generator().manual_seed(cfg.seed)
    xl, yl = _windows(cfg.n_labeled, cfg, g)
    xu, _ = _windows(cfg.n_unlabeled, cfg, g)
    xv, yv = _windows(256, cfg, g)
    labeled = DataLoader(TensorDataset(xl, yl), batch_size=cfg.batch_size, shuffle=True, drop_last=True)
    unlabeled = DataLoader(TensorDataset(xu), batch_size=cfg.batch_size * 2, shuffle=True, drop_last=True)
    val = DataLoader(TensorDataset(xv, yv), batch_size=128)
    return labeled, unlabeled, val
