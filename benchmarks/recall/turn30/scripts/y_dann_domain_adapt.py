"""Unsupervised domain adaptation (DANN): labelled source loader zipped with an unlabelled
target loader, gradient reversal into a domain discriminator, imbalanced class weights."""
import argparse
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.lambd * grad, None


def domain_data(n, shift, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.multinomial(torch.tensor([0.6, 0.1, 0.3]), n, replacement=True, generator=g)
    x = torch.randn(n, 10, generator=g) + y[:, None].float() + shift
    return TensorDataset(x, y)


class DANN(nn.Module):
    def __init__(self, in_dim=10, feat=32, n_classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, feat), nn.ReLU(), nn.Linear(feat, feat), nn.ReLU())
        self.classifier = nn.Linear(feat, n_classes)
        self.domain = nn.Sequential(nn.Linear(feat, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x, lambd=1.0):
        f = self.features(x)
        return self.classifier(f), self.domain(GradReverse.apply(f, lambd)).squeeze(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--gpu", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if args.gpu and torch.cuda.is_available() else "cpu")

    src_loader = DataLoader(domain_data(512, 0.0, 0), batch_size=args.batch_size, shuffle=True, drop_last=True)
    tgt_loader = DataLoader(domain_data(512, 1.5, 1), batch_size=args.batch_size, shuffle=True, drop_last=True)
    model = DANN().to(device)
    cls_criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 6.0, 2.0]))  # expect: DEV012
    dom_criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    total = args.epochs * min(len(src_loader), len(tgt_loader))
    it = 0
    for epoch in range(args.epochs):
        for (xs, ys), (xt, _) in zip(src_loader, tgt_loader):
            p = it / total
            lambd = 2.0 / (1.0 + math.exp(-10 * p)) - 1.0
            xs, ys, xt = xs.to(device), ys.to(device), xt.to(device)
            x = torch.cat([xs, xt])
            class_logits, dom_logits = model(x, lambd)
            dom_labels = torch.cat([torch.zeros(xs.size(0)), torch.ones(xt.size(0))])  # expect: DEV006
            loss_cls = cls_criterion(class_logits[: xs.size(0)], ys)
            loss_dom = dom_criterion(dom_logits, dom_labels)
            loss = loss_cls + loss_dom
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            it += 1
        print(f"epoch {epoch} cls {loss_cls.item():.3f} dom {loss_dom.item():.3f} lambda {lambd:.2f}")


if __name__ == "__main__":
    main()
