"""Quantisation-aware training of a small MLP: a straight-through autograd.Function and a focal loss with per-class alpha."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class STEQuantize(torch.autograd.Function):
    """Round to `levels` steps in [0, 1]; gradient passes through inside the range only."""

    @staticmethod
    def forward(ctx, x, levels):
        ctx.save_for_backward(x)
        scale = levels - 1
        return torch.round(x.clamp(0, 1) * scale) / scale

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        pass_through = torch.zeros(x.shape)  # expect: DEV006
        pass_through[(x >= 0) & (x <= 1)] = 1.0
        return grad_out * pass_through, None


class QuantMLP(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, levels=16):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)
        self.levels = levels

    def forward(self, x):
        h = torch.sigmoid(self.fc1(x))
        h = STEQuantize.apply(h, self.levels)
        return self.fc2(h)


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0):
        super().__init__()
        self.alpha = torch.tensor(alpha, dtype=torch.float32)  # expect: DEV010
        self.gamma = gamma

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1)
        logp_t = logp.gather(1, target[:, None]).squeeze(1)
        alpha_t = self.alpha[target]
        return (-alpha_t * (1 - logp_t.exp()) ** self.gamma * logp_t).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    x = torch.randn(512, 20)
    y = (x[:, 0] > 0.5).long() + (x[:, 1] > 1.0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)

    model = QuantMLP(20, 32, 3).to(device)
    criterion = FocalLoss([0.2, 0.3, 0.5]).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
