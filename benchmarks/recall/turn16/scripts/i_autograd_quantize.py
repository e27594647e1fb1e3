"""Quantisation-aware training of a small MLP: activations are snapped to a
fixed set of levels with a straight-through estimator, and the classifier is
trained with a focal loss (alpha-balanced) on imbalanced data.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class SnapToLevels(torch.autograd.Function):
    """Forward: nearest of `n_levels` uniformly spaced levels in [-1, 1].
    Backward: straight-through inside [-1, 1], zero outside."""

    @staticmethod
    def forward(ctx, x, n_levels):
        levels = torch.linspace(-1.0, 1.0, n_levels)  # expect: DEV006
        idx = (x.unsqueeze(-1) - levels).abs().argmin(dim=-1)
        ctx.save_for_backward(x)
        return levels[idx]

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        inside = (x.abs() <= 1.0).to(grad_out.dtype)
        return grad_out * inside, None


class QuantMLP(nn.Module):
    def __init__(self, dim, hidden, num_classes, n_levels=8):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, num_classes)
        self.n_levels = n_levels

    def forward(self, x):
        x = SnapToLevels.apply(torch.tanh(self.fc1(x)), self.n_levels)
        x = SnapToLevels.apply(torch.tanh(self.fc2(x)), self.n_levels)
        return self.out(x)


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0):
        super().__init__()
        self.alpha = torch.tensor(alpha, dtype=torch.float32)  # expect: DEV010
        self.gamma = gamma

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1)
        logp_t = logp.gather(1, target.unsqueeze(1)).squeeze(1)
        p_t = logp_t.exp()
        a_t = self.alpha[target]
        return (-a_t * (1 - p_t) ** self.gamma * logp_t).mean()


def make_data(n=2000, dim=20, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, dim, generator=g)
    score = x[:, 0] + 0.5 * x[:, 1] * x[:, 2]
    y = torch.zeros(n, dtype=torch.long)
    y[score > 1.0] = 1
    y[score > 2.2] = 2
    return x, y


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--levels", type=int, default=8)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = p.parse_args()

    device = torch.device(args.device)
    torch.manual_seed(0)
    x, y = make_data()
    counts = torch.bincount(y, minlength=3).float()
    alpha = (counts.sum() / (3 * counts)).tolist()
    print("alpha", [round(a, 2) for a in alpha])

    model = QuantMLP(x.size(1), 64, 3, args.levels).to(device)
    criterion = FocalLoss(alpha).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    ds = torch.utils.data.TensorDataset(x, y)
    loader = torch.utils.data.DataLoader(ds, batch_size=128, shuffle=True)

    for epoch in range(args.epochs):
        total = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * xb.size(0)
        with torch.no_grad():
            pred = model(x.to(device)).argmax(-1).cpu()
        per_class = [(pred[y == c] == c).float().mean().item() for c in range(3)]
        print(f"epoch {epoch}  loss {total / len(ds):.4f}  recall/class {[round(r, 2) for r in per_class]}")


if __name__ == "__main__":
    main()
