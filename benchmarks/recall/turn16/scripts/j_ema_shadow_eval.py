"""Classifier with an exponential moving average of the weights; validation uses the EMA copy.

Keeps the best EMA weights on disk and reloads them at the end for a final report.
"""
import copy
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class ModelEMA:
    """Minimal timm-style EMA holder."""

    def __init__(self, model, decay=0.999):
        self.module = copy.deepcopy(model)  # expect: DEV016
        self.module.eval()
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        msd = model.state_dict()
        for k, v in self.module.state_dict().items():
            if v.dtype.is_floating_point:
                v.mul_(self.decay).add_(msd[k].detach(), alpha=1.0 - self.decay)

    def state_dict(self):
        return self.module.state_dict()


class Net(nn.Module):
    def __init__(self, d_in=20, n_cls=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, 64)
        self.bn = nn.BatchNorm1d(64)
        self.fc2 = nn.Linear(64, n_cls)

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x))))


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    correct = n = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(1) == y).sum().item()
        n += y.numel()
    return correct / n


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    x = torch.randn(600, 20)
    y = (x[:, :4].argmax(1))
    train_dl = DataLoader(TensorDataset(x[:500], y[:500]), batch_size=50, shuffle=True)
    val_dl = DataLoader(TensorDataset(x[500:], y[500:]), batch_size=50)

    model = Net()
    ema = ModelEMA(model, decay=0.99)
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    best, best_path = 0.0, os.path.join(tempfile.gettempdir(), "j_ema_best.pt")
    for epoch in range(4):
        model.train()
        for xb, yb in train_dl:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update(model)
        acc_raw = accuracy(model, val_dl, device)
        acc_ema = accuracy(ema.module, val_dl, device)
        print(f"epoch {epoch}: raw {acc_raw:.3f} ema {acc_ema:.3f}")
        if acc_ema > best:
            best = acc_ema
            torch.save(ema.state_dict(), best_path)

    final = Net().to(device)
    final.load_state_dict(torch.load(best_path, map_location=device))
    print("best ema acc (reloaded):", accuracy(final, val_dl, device))


if __name__ == "__main__":
    main()
