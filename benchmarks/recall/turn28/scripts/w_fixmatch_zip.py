"""FixMatch-style semi-supervised training: a labelled and an unlabelled loader zipped together."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset


class TwoViews(Dataset):
    """Unlabelled samples returned as a weak and a strong augmentation."""

    def __init__(self, x):
        self.x = x

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        v = self.x[i]
        weak = v + 0.05 * torch.randn_like(v)
        strong = v * (torch.rand_like(v) > 0.3) + 0.3 * torch.randn_like(v)
        return weak, strong


def build_loaders(batch_size, mu):
    g = torch.Generator().manual_seed(0)
    y = torch.randint(0, 4, (640,), generator=g)
    x = torch.randn(640, 20, generator=g) + 2 * F.one_hot(y, 20).float()
    labelled = TensorDataset(x[:64], y[:64])
    unlabelled = TwoViews(x[64:])
    lab_loader = DataLoader(labelled, batch_size=batch_size, shuffle=True, drop_last=True)
    unl_loader = DataLoader(unlabelled, batch_size=batch_size * mu, shuffle=True, drop_last=True)
    return lab_loader, unl_loader


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--threshold", type=float, default=0.9)
    ap.add_argument("--lambda-u", type=float, default=1.0)
    ap.add_argument("--mu", type=int, default=3)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    lab_loader, unl_loader = build_loaders(16, args.mu)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)

    for epoch in range(args.epochs):
        for (x_l, y_l), (x_w, x_s) in zip(lab_loader, unl_loader):
            model.to(device)  # expect: DEV007
            model.train()
            x_l, y_l = x_l.to(device), y_l.to(device)
            x_w = x_w.to(device)

            loss_x = F.cross_entropy(model(x_l), y_l)
            with torch.no_grad():
                probs = model(x_w).softmax(dim=1)
                conf, pseudo = probs.max(dim=1)
                mask = (conf >= args.threshold).float()
            logits_s = model(x_s)  # expect: DEV002
            loss_u = (F.cross_entropy(logits_s, pseudo, reduction="none") * mask).mean()
            loss = loss_x + args.lambda_u * loss_u

            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} Lx {loss_x.item():.3f} Lu {loss_u.item():.3f} mask {mask.mean().item():.2f}")


if __name__ == "__main__":
    main()
