"""Domain-adversarial training (DANN) on two synthetic domains: a gradient
reversal Function, task/domain heads, and a centre loss that keeps its
running class centres as buffers.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.save_for_backward(torch.as_tensor(lambd, dtype=x.dtype, device=x.device))
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        (lambd,) = ctx.saved_tensors
        return -lambd * grad_output, None


class CenterLoss(nn.Module):
    """Pulls features towards an EMA of their class centre."""

    def __init__(self, num_classes, dim, momentum=0.9):
        super().__init__()
        self.register_buffer("centers", torch.zeros(num_classes, dim))
        self.register_buffer("initialized", torch.zeros(num_classes, dtype=torch.bool))
        self.momentum = momentum

    def forward(self, feats, labels):
        with torch.no_grad():
            for c in labels.unique():
                mean_c = feats[labels == c].mean(0)
                if self.initialized[c]:
                    self.centers[c].mul_(self.momentum).add_(mean_c, alpha=1 - self.momentum)
                else:
                    self.centers[c] = mean_c
                    self.initialized[c] = True
        return (feats - self.centers[labels]).pow(2).sum(1).mean()


class DANN(nn.Module):
    def __init__(self, in_dim, feat_dim, num_classes):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, feat_dim), nn.ReLU())
        self.heads = nn.ModuleDict({
            "task": nn.Linear(feat_dim, num_classes),
            "domain": nn.Sequential(nn.Linear(feat_dim, 32), nn.ReLU(), nn.Linear(32, 2)),
        })

    def forward(self, x, lambd=0.0):
        f = self.features(x)
        return f, self.heads["task"](f), self.heads["domain"](GradReverse.apply(f, lambd))


def two_domains(n=600, dim=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(dim, generator=g)
    xs = torch.randn(n, dim, generator=g)
    ys = (xs @ w > 0).long()
    shift = torch.linspace(0.5, 1.5, dim)
    xt = torch.randn(n, dim, generator=g) * 1.3 + shift
    yt = (xt @ w > (shift @ w)).long()
    return xs, ys, xt, yt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")
    torch.manual_seed(0)
    xs, ys, xt, yt = two_domains()
    model = DANN(xs.size(1), 16, 2).to(device)
    center_loss = CenterLoss(2, 16).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    batch = 64
    steps = xs.size(0) // batch

    for epoch in range(args.epochs):
        perm_s, perm_t = torch.randperm(xs.size(0)), torch.randperm(xt.size(0))
        for i in range(steps):
            progress = (epoch * steps + i) / (args.epochs * steps)
            lambd = 2.0 / (1.0 + math.exp(-10 * progress)) - 1.0
            bs, bt = perm_s[i * batch:(i + 1) * batch], perm_t[i * batch:(i + 1) * batch]
            x = torch.cat([xs[bs], xt[bt]]).to(device)
            y_src = ys[bs].to(device)
            domain = torch.cat([torch.zeros(len(bs)), torch.ones(len(bt))]).long().to(device)
            feats, task_logits, dom_logits = model(x, lambd)
            n_src = len(bs)
            loss = (F.cross_entropy(task_logits[:n_src], y_src)
                    + F.cross_entropy(dom_logits, domain)
                    + 0.01 * center_loss(feats[:n_src], y_src))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            _, logits_t, _ = model(xt.to(device))
            acc_t = (logits_t.argmax(-1).cpu() == yt).float().mean().item()
        if epoch % 5 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch:2d} loss {loss.item():.4f} target acc {acc_t:.3f} lambda {lambd:.2f}")


if __name__ == "__main__":
    main()
