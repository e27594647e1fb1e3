"""Conditional flow matching (rectified flow) on a toy 2-D dataset, Euler sampler.

The lab box has two GPUs; the first is usually taken by the notebook server,
so --gpu picks one, checked against the number of visible devices.
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def checkerboard(n):
    x = torch.rand(n, 2) * 4 - 2
    keep = ((x[:, 0].floor() + x[:, 1].floor()) % 2) == 0
    return x[keep]


class VelocityField(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.SiLU(), nn.Linear(hidden, hidden),
                                 nn.SiLU(), nn.Linear(hidden, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=-1))


def get_device(index):
    if torch.cuda.is_available() and index < torch.cuda.device_count():
        return torch.device("cuda", index)
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


def train_epoch(model, loader, opt, device):
    model.train()
    total = 0.0
    for (x1,) in loader:
        x1 = x1.to(device)
        x0 = torch.randn_like(x1)
        t = torch.rand(x1.size(0), 1, device=x1.device)
        xt = (1 - t) * x0 + t * x1
        target = x1 - x0
        loss = ((model(xt, t) - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * x1.size(0)
    return total / len(loader.dataset)


@torch.no_grad()
def euler_sample(model, n, steps, device):
    x = torch.randn(n, 2, device=device)
    dt = 1.0 / steps
    for k in range(steps):
        t = torch.full((n, 1), k * dt, device=device)
        x = x + dt * model(x, t)
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--gpu", type=int, default=1)
    args = ap.parse_args()
    device = get_device(args.gpu)

    data = TensorDataset(checkerboard(4000))
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True)
    model = VelocityField().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        print(f"epoch {epoch}: loss {train_epoch(model, loader, opt, device):.4f}")
    xs = euler_sample(model, 512, 20, device).cpu()
    print("sample spread", xs.std(0).tolist())


if __name__ == "__main__":
    main()
