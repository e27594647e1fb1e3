"""FixMatch-style semi-supervised training: a small labelled loader zipped with a larger
unlabelled loader that yields (weak, strong) augmented views; pseudo-labels above a threshold."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Points(Dataset):
    def __init__(self, n, labelled, seed):
        g = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, 3, (n,), generator=g)
        angle = self.y.float() * 2.094 + 0.3 * torch.randn(n, generator=g)
        self.x = torch.stack([angle.cos(), angle.sin()], 1) * 2 + 0.2 * torch.randn(n, 2, generator=g)
        self.labelled = labelled

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = self.x[i]
        if self.labelled:
            return x, self.y[i]
        weak = x + 0.05 * torch.randn(2)
        strong = x * (1 + 0.2 * torch.randn(2)) + 0.3 * torch.randn(2)
        return weak, strong


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--lambda-u", type=float, default=1.0)
    parser.add_argument("--mu", type=int, default=4, help="unlabelled / labelled batch ratio")
    args = parser.parse_args()
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

    labelled_loader = DataLoader(Points(64, True, 0), batch_size=16, shuffle=True, drop_last=True)
    unlabelled_loader = DataLoader(Points(1024, False, 1), batch_size=16 * args.mu, shuffle=True,
                                   drop_last=True)
    model = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)

    for epoch in range(args.epochs):
        model.train()
        for (xl, yl), (xu_w, xu_s) in zip(labelled_loader, unlabelled_loader):
            xl = xl.to(device)
            yl.to(device)  # expect: DEV005
            logits_l = model(xl)
            loss_x = F.cross_entropy(logits_l, yl)  # also: DEV004
            with torch.no_grad():
                probs_u = model(xu_w).softmax(dim=1)  # expect: DEV002
            max_p, pseudo = probs_u.max(dim=1)
            mask = (max_p >= args.threshold).float()
            logits_s = model(xu_s.to(device))
            loss_u = (F.cross_entropy(logits_s, pseudo, reduction="none") * mask).mean()
            loss = loss_x + args.lambda_u * loss_u
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss_x {loss_x.item():.3f} loss_u {loss_u.item():.3f} mask {mask.mean().item():.2f}")


if __name__ == "__main__":
    main()
