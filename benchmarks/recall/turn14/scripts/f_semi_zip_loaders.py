"""Pseudo-labelling (FixMatch-like) with a small labelled set and a large unlabelled set.

Each step draws one labelled and one unlabelled batch; confident predictions on a
weakly perturbed view become targets for a strongly perturbed view.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_data(n_labeled=100, n_unlabeled=800, n_feats=20, n_classes=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    centers = 2.0 * torch.randn(n_classes, n_feats, generator=g)

    def sample(n):
        y = torch.randint(0, n_classes, (n,), generator=g)
        return centers[y] + torch.randn(n, n_feats, generator=g), y

    x_l, y_l = sample(n_labeled)
    x_u, _ = sample(n_unlabeled)
    x_t, y_t = sample(400)
    return TensorDataset(x_l, y_l), TensorDataset(x_u), TensorDataset(x_t, y_t)


def weak_aug(x):
    return x + 0.05 * torch.randn_like(x)


def strong_aug(x):
    keep = (torch.rand_like(x) > 0.2).float()
    return x * keep + 0.3 * torch.randn_like(x)


class Classifier(nn.Module):
    def __init__(self, n_feats, n_classes):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feats, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, x):
        return self.net(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--lambda-u", type=float, default=1.0)
    parser.add_argument("--mu", type=int, default=7, help="unlabelled/labelled batch size ratio")
    args = parser.parse_args()

    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    labeled, unlabeled, test = make_data()
    labeled_loader = DataLoader(labeled, batch_size=16, shuffle=True, drop_last=True)
    unlabeled_loader = DataLoader(unlabeled, batch_size=16 * args.mu, shuffle=True, drop_last=True)
    test_loader = DataLoader(test, batch_size=200)

    model = Classifier(20, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)

    for epoch in range(args.epochs):
        model.train()
        for (x_l, y_l), (x_u,) in zip(labeled_loader, unlabeled_loader):
            x_l, y_l = x_l.to(device), y_l.to(device)
            n_l = x_l.size(0)
            x_u_weak, x_u_strong = weak_aug(x_u), strong_aug(x_u)

            logits_l = model(x_l)
            logits_u = model(torch.cat([x_u_weak, x_u_strong]))  # expect: DEV002
            logits_u_weak, logits_u_strong = logits_u.chunk(2)

            probs = F.softmax(logits_u_weak.detach(), dim=1)
            max_probs, pseudo = probs.max(dim=1)
            mask = (max_probs >= args.threshold).float()

            loss_x = F.cross_entropy(logits_l, y_l)
            loss_u = (F.cross_entropy(logits_u_strong, pseudo, reduction="none") * mask).mean()
            loss = loss_x + args.lambda_u * loss_u
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in test_loader:
                correct += (model(x.to(device)).argmax(1) == y.to(device)).sum().item()
        print(f"epoch {epoch}  n_l {n_l}  mask rate {mask.mean().item():.2f}  test acc {correct / len(test):.3f}")


if __name__ == "__main__":
    main()
