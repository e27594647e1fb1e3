"""Unsupervised domain adaptation (DANN): a labelled source loader and an unlabelled target loader zipped
together, with a gradient-reversal domain discriminator."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return -ctx.alpha * grad, None


def make_domain(n, shift, seed, labelled=True):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 10, generator=g) + shift
    y = (x[:, 0] > shift).long()
    return TensorDataset(x, y) if labelled else TensorDataset(x, torch.zeros(n, dtype=torch.long))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--alpha", type=float, default=0.3)
    ap.add_argument("--cuda", action="store_true", help="train on the GPU if there is one")
    args = ap.parse_args()
    device = torch.device("cuda" if args.cuda and torch.cuda.is_available() else "cpu")

    src_loader = DataLoader(make_domain(128, 0.0, 0), batch_size=16, shuffle=True, drop_last=True)
    tgt_loader = DataLoader(make_domain(128, 1.5, 1, labelled=False), batch_size=16, shuffle=True,
                            drop_last=True)

    features = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU()).to(device)
    classifier = nn.Linear(16, 2).to(device)
    discriminator = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    params = [*features.parameters(), *classifier.parameters(), *discriminator.parameters()]
    opt = torch.optim.Adam(params, lr=1e-3)

    for epoch in range(args.epochs):
        for (xs, ys), (xt, _) in zip(src_loader, tgt_loader):
            xs, ys = xs.to(device), ys.to(device)
            feat_s = features(xs)
            feat_t = features(xt)  # expect: DEV002
            cls_loss = F.cross_entropy(classifier(feat_s), ys)

            feats = torch.cat([feat_s, feat_t])
            domain_logits = discriminator(GradReverse.apply(feats, args.alpha)).squeeze(-1)
            domain_labels = torch.cat([torch.zeros(len(xs)), torch.ones(len(xt))])  # expect: DEV006
            dom_loss = F.binary_cross_entropy_with_logits(domain_logits, domain_labels)

            loss = cls_loss + dom_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} cls {cls_loss.item():.3f} dom {dom_loss.item():.3f}")


if __name__ == "__main__":
    main()
