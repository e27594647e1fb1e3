"""Long-tailed species classifier with two heads: a focal loss with per-class
alpha on the linear head and an additive-margin softmax on the cosine head."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0):
        super().__init__()
        self.register_buffer("alpha", torch.tensor(alpha, dtype=torch.float32))
        self.gamma = gamma

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1).gather(1, target[:, None]).squeeze(1)
        at = self.alpha[target]
        return (-at * (1 - logp.exp()) ** self.gamma * logp).mean()


class AdditiveMarginLoss(nn.Module):
    def __init__(self, scale=16.0, margin=0.25):
        super().__init__()
        self.scale, self.margin = scale, margin

    def forward(self, cos, target):
        onehot = F.one_hot(target, cos.size(1)).to(cos.dtype)
        return F.cross_entropy(self.scale * (cos - self.margin * onehot), target)


class TwoHeadNet(nn.Module):
    def __init__(self, d_in, n_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, 32))
        self.linear_head = nn.Linear(32, n_classes)
        self.proto = nn.Parameter(torch.randn(n_classes, 32))

    def forward(self, x):
        h = self.body(x)
        cos = F.normalize(h, dim=-1) @ F.normalize(self.proto, dim=-1).t()
        return self.linear_head(h), cos


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    device = torch.device(args.device)

    n_classes = 5
    counts = torch.tensor([400, 150, 60, 25, 10])
    g = torch.Generator().manual_seed(0)
    y = torch.repeat_interleave(torch.arange(n_classes), counts)
    x = torch.randn(len(y), 12, generator=g) + F.one_hot(y, 12).float() * 2
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)

    alpha = (counts.sum() / counts).float()
    focal = FocalLoss((alpha / alpha.sum()).tolist()).to(device)
    margin = AdditiveMarginLoss().to(device)
    model = TwoHeadNet(12, n_classes).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            logits, cos = model(xb)
            loss = focal(logits, yb) + margin(cos, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
