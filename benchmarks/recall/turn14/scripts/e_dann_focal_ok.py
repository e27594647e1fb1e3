"""Domain-adversarial training (DANN) with a gradient reversal layer and a
class-balanced focal loss on the label head. Source/target are synthetic."""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Cfg:
    n_classes: int = 3
    alpha: tuple = (0.2, 0.3, 0.5)
    gamma: float = 2.0
    steps: int = 60
    batch: int = 64
    grl_max: float = 1.0


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        grad = -ctx.lambd * grad_output
        # drop non-finite entries instead of poisoning the feature extractor
        grad = torch.where(torch.isfinite(grad), grad, torch.zeros_like(grad))
        return grad, None


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma):
        super().__init__()
        self.register_buffer("alpha", torch.tensor(alpha, dtype=torch.float32))
        self.gamma = gamma

    def forward(self, logits, target):
        logp = F.log_softmax(logits, -1).gather(1, target[:, None]).squeeze(1)
        return (-self.alpha[target] * (1 - logp.exp()) ** self.gamma * logp).mean()


class DANN(nn.Module):
    def __init__(self, n_in, n_classes):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.label_head = nn.Linear(32, n_classes)
        self.domain_head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x, lambd=0.0):
        f = self.features(x)
        return self.label_head(f), self.domain_head(GradReverse.apply(f, lambd)).squeeze(-1)


def domain_batch(n, shift, rng, n_classes):
    y = rng.integers(0, n_classes, n)
    x = rng.normal(size=(n, 8)) + np.eye(n_classes, 8)[y] * 2 + shift
    return torch.from_numpy(x).float(), torch.from_numpy(y).long()


def main(cfg=Cfg()):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    model = DANN(8, cfg.n_classes).to(device)
    focal = FocalLoss(cfg.alpha, cfg.gamma).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for step in range(cfg.steps):
        p = step / cfg.steps
        lambd = cfg.grl_max * (2 / (1 + np.exp(-10 * p)) - 1)
        xs, ys = domain_batch(cfg.batch, 0.0, rng, cfg.n_classes)
        xt, _ = domain_batch(cfg.batch, 0.8, rng, cfg.n_classes)
        xs, ys, xt = xs.to(device), ys.to(device), xt.to(device)

        logits_s, dom_s = model(xs, lambd)
        _, dom_t = model(xt, lambd)
        dom_logits = torch.cat([dom_s, dom_t])
        dom_labels = torch.cat([torch.zeros_like(dom_s), torch.ones_like(dom_t)])
        loss = focal(logits_s, ys) + F.binary_cross_entropy_with_logits(dom_logits, dom_labels)
        opt.zero_grad()
        loss.backward()
        opt.step()

    with torch.no_grad():
        xt, yt = domain_batch(512, 0.8, rng, cfg.n_classes)
        pred = model(xt.to(device))[0].argmax(-1).cpu().numpy()
    print("target accuracy", float((pred == yt.numpy()).mean()))


if __name__ == "__main__":
    main()
