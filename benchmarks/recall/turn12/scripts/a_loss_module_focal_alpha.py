"""Focal loss as a custom nn.Module with a per-class alpha, used to train a
small classifier on imbalanced synthetic data; the first batch is peeked and
moved up front for a shape/loss sanity check.

Written from "Expected object of backend CPU but got backend CUDA for argument #3
'index'" (yatengLG/Focal-Loss-Pytorch#17: `self.alpha.gather(0, labels)`),
"if I set alpha the program crash" (clcarwin/focal_loss_pytorch#4) and
"dtype to device update" (kornia#224): `.to(device)` on the loss module moves
nothing when alpha is a plain attribute.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0, reduction="mean"):
        super().__init__()
        self.alpha = torch.tensor(alpha, dtype=torch.float32)  # expect: DEV010
        self.gamma = gamma
        self.reduction = reduction

    def forward(self, logits, target):
        log_p = F.log_softmax(logits, dim=-1)
        log_pt = log_p.gather(1, target.unsqueeze(1)).squeeze(1)
        pt = log_pt.exp()
        at = self.alpha.gather(0, target)
        loss = -at * (1.0 - pt) ** self.gamma * log_pt
        return loss.mean() if self.reduction == "mean" else loss.sum()


def make_data(n=1200, n_classes=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.multinomial(torch.tensor([0.7, 0.2, 0.07, 0.03]), n, replacement=True, generator=g)
    x = torch.randn(n, 16, generator=g)
    x[torch.arange(n), y] += 2.0
    return TensorDataset(x, y)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(make_data(), batch_size=64, shuffle=True)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    criterion = FocalLoss(alpha=[0.25, 0.75, 1.0, 1.0], gamma=2.0).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    features, targets = next(iter(loader))
    features, targets = features.to(device), targets.to(device)  # expect: DEV003
    print("sanity loss:", criterion(model(features), targets).item())

    for epoch in range(4):
        total = 0.0
        for features, targets in loader:
            logits = model(features)  # also: DEV002
            loss = criterion(logits, targets)  # also: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * features.size(0)
        print(f"epoch {epoch}: focal loss {total / len(loader.dataset):.4f}")


if __name__ == "__main__":
    main()
