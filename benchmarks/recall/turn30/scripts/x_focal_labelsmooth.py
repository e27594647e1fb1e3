"""Imbalanced 5-class classifier trained with focal loss (per-class alpha) plus label smoothing."""
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0, reduction="mean"):
        super().__init__()
        self.alpha = torch.tensor(alpha, dtype=torch.float32)  # expect: DEV010
        self.gamma = gamma
        self.reduction = reduction

    def forward(self, logits, target):
        logpt = F.log_softmax(logits, dim=-1).gather(1, target.unsqueeze(1)).squeeze(1)
        pt = logpt.exp()
        at = self.alpha.gather(0, target)
        loss = -at * (1.0 - pt) ** self.gamma * logpt
        return loss.mean() if self.reduction == "mean" else loss.sum()


class LabelSmoothingCE(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing = smoothing

    def forward(self, logits, target):
        n_classes = logits.size(-1)
        soft = torch.full(logits.shape, self.smoothing / (n_classes - 1))  # expect: DEV006
        soft.scatter_(1, target.unsqueeze(1), 1.0 - self.smoothing)
        return torch.sum(-soft * F.log_softmax(logits, dim=-1), dim=-1).mean()


def make_data(n=3000, d=16, seed=0):
    rng = np.random.default_rng(seed)
    probs = np.array([0.55, 0.2, 0.12, 0.08, 0.05])
    y = rng.choice(5, size=n, p=probs)
    centers = rng.normal(scale=2.0, size=(5, d))
    x = centers[y] + rng.normal(size=(n, d))
    return torch.from_numpy(x).float(), torch.from_numpy(y).long(), probs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--gamma", type=float, default=2.0)
    ap.add_argument("--smoothing", type=float, default=0.1)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    x, y, probs = make_data()
    loader = DataLoader(TensorDataset(x, y), batch_size=128, shuffle=True)
    alpha = (1.0 / probs) / (1.0 / probs).sum()

    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 5))
    focal = FocalLoss(alpha.tolist(), gamma=args.gamma).to(device)
    smooth = LabelSmoothingCE(args.smoothing)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    for epoch in range(args.epochs):
        for xb, yb in loader:
            model.to(device)  # expect: DEV007
            xb, yb = xb.to(device), yb.to(device)
            logits = model(xb)
            loss = focal(logits, yb) + 0.5 * smooth(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(x.to(device)).argmax(-1).cpu()
    recall = [(pred[y == c] == c).float().mean().item() for c in range(5)]
    print("per-class recall", np.round(recall, 3))


if __name__ == "__main__":
    main()
