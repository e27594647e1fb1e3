"""Domain-adversarial feature learning with a gradient reversal layer written as a custom
autograd.Function; the reversal strength is saved as a tensor for backward."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.save_for_backward(torch.tensor([lambd]))  # expect: DEV006
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        (lambd,) = ctx.saved_tensors
        return -lambd * grad_output, None


class DANN(nn.Module):
    def __init__(self, d_in=32, d_hid=64, classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(d_in, d_hid), nn.ReLU(), nn.Linear(d_hid, d_hid), nn.ReLU())
        self.label_head = nn.Linear(d_hid, classes)
        self.domain_head = nn.Sequential(nn.Linear(d_hid, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x, lambd):
        f = self.features(x)
        return self.label_head(f), self.domain_head(GradReverse.apply(f, lambd)).squeeze(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lambd", type=float, default=0.3)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    xs, ys = torch.randn(2000, 32), torch.randint(0, 3, (2000,))
    xt = torch.randn(2000, 32) + 0.5
    domain = torch.cat([torch.zeros(2000), torch.ones(2000)])
    loader = DataLoader(TensorDataset(torch.cat([xs, xt]), torch.cat([ys, torch.full((2000,), -1)]), domain),
                        batch_size=128, shuffle=True)
    model = DANN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for x, y, d in loader:
            x, y, d = x.to(device), y.to(device), d.to(device)
            logits, dom = model(x, args.lambd)
            labelled = y >= 0
            loss = F.cross_entropy(logits[labelled], y[labelled]) + F.binary_cross_entropy_with_logits(dom, d)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
