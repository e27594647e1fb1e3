"""Pi-model semi-supervised training driven by a dataclass config.

Two stochastic passes (dropout + input noise) over the same unlabelled batch
should agree; labelled batches add a cross-entropy term.
"""
from dataclasses import dataclass, asdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class PiConfig:
    n_labelled: int = 48
    n_unlabelled: int = 512
    batch_size: int = 32
    epochs: int = 3
    lr: float = 1e-3
    max_unsup_weight: float = 5.0
    noise: float = 0.1
    # second card is free on the lab box; the first one runs the notebook server
    device: str = "cuda:1" if torch.cuda.is_available() else "cpu"  # expect: DEV018


def toy_split(cfg: PiConfig):
    g = torch.Generator().manual_seed(3)
    n = cfg.n_labelled + cfg.n_unlabelled
    x = torch.randn(n, 20, generator=g)
    y = (x[:, :2].sum(1) > 0).long() * 2 + (x[:, 2] > 0).long()
    return (x[: cfg.n_labelled], y[: cfg.n_labelled]), x[cfg.n_labelled:]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 128), nn.ReLU(),
                               nn.Dropout(0.3), nn.Linear(128, 4))

    def forward(self, x):
        return self.f(x)


def unsup_weight(epoch, cfg):
    return cfg.max_unsup_weight * min(1.0, (epoch + 1) / cfg.epochs)


def run(cfg: PiConfig):
    print(asdict(cfg))
    (xl, yl), xu = toy_split(cfg)
    lab = DataLoader(TensorDataset(xl, yl), batch_size=cfg.batch_size // 2, shuffle=True)
    unlab = DataLoader(TensorDataset(xu), batch_size=cfg.batch_size, shuffle=True)
    model = Net().to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        w = unsup_weight(epoch, cfg)
        lab_it = iter(lab)
        for (ub,) in unlab:
            try:
                xb, yb = next(lab_it)
            except StopIteration:
                lab_it = iter(lab)
                xb, yb = next(lab_it)
            xb.to(cfg.device)  # expect: DEV005
            yb = yb.to(cfg.device)
            ub = ub.to(cfg.device)
            sup = F.cross_entropy(model(xb), yb)  # also: DEV002
            z1 = model(ub + cfg.noise * torch.randn_like(ub))
            z2 = model(ub + cfg.noise * torch.randn_like(ub))
            cons = F.mse_loss(F.softmax(z1, 1), F.softmax(z2, 1).detach())
            loss = sup + w * cons
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: sup={sup.item():.3f} cons={cons.item():.4f} w={w:.2f}")


if __name__ == "__main__":
    run(PiConfig())
