"""DANN domain adaptation: a gradient-reversal domain classifier on source/target batches zipped together."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.lambd * grad, None


class DANN(nn.Module):
    def __init__(self, in_dim=16, feat=32, n_cls=3):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, feat), nn.ReLU(), nn.Linear(feat, feat), nn.ReLU())
        self.classifier = nn.Linear(feat, n_cls)
        self.domain = nn.Sequential(nn.Linear(feat, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x, lambd=1.0):
        f = self.features(x)
        return self.classifier(f), self.domain(GradReverse.apply(f, lambd))


def domain_data(n, shift, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 3, (n,), generator=g)
    x = torch.randn(n, 16, generator=g) + y[:, None].float() + shift
    return TensorDataset(x, y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--gpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if args.gpu and torch.cuda.is_available() else "cpu")

    src_loader = DataLoader(domain_data(300, 0.0, 0), batch_size=32, shuffle=True, drop_last=True)
    tgt_loader = DataLoader(domain_data(300, 1.5, 1), batch_size=32, shuffle=True, drop_last=True)
    model = DANN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    cls_criterion = nn.CrossEntropyLoss()
    # target batches are harder to tell apart late in training: weight that class more
    dom_criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0]))  # expect: DEV012

    steps = args.epochs * min(len(src_loader), len(tgt_loader))
    step = 0
    for epoch in range(args.epochs):
        for (xs, ys), (xt, _) in zip(src_loader, tgt_loader):
            p = step / steps
            lambd = 2.0 / (1.0 + torch.exp(torch.tensor(-10.0 * p)).item()) - 1.0
            xs, ys, xt = xs.to(device), ys.to(device), xt.to(device)
            x = torch.cat([xs, xt])
            cls_logits, dom_logits = model(x, lambd)
            d_labels = torch.cat([torch.zeros(xs.size(0), dtype=torch.long), torch.ones(xt.size(0), dtype=torch.long)])  # expect: DEV006
            loss = cls_criterion(cls_logits[: xs.size(0)], ys) + dom_criterion(dom_logits, d_labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        print(f"epoch {epoch} loss {loss.item():.3f} lambda {lambd:.2f}")


if __name__ == "__main__":
    main()
