"""Loss modules done right: learnable centers moved with the criterion, per-class margins
registered as a buffer and moved, a 0-dim temperature made on the CPU.

Look-alike of loss_center_loss_unmoved.py and loss_class_margins_attr.py.
Thread: https://github.com/kitzeslab/opensoundscape/issues/438
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CenterLoss(nn.Module):
    def __init__(self, n_cls, dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(n_cls, dim))

    def forward(self, feats, labels):
        return ((feats - self.centers[labels]) ** 2).sum(1).mean() / 2


class PerClassMarginLoss(nn.Module):
    def __init__(self, counts):
        super().__init__()
        self.register_buffer("margins", 0.5 / torch.tensor(counts, dtype=torch.float32).pow(0.25))
        self.temp = torch.tensor(16.0)

    def forward(self, cosine, target):
        adjusted = cosine - F.one_hot(target, cosine.size(1)) * self.margins[target].unsqueeze(1)
        return F.cross_entropy(self.temp * adjusted, target)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    body = nn.Linear(32, 8).to(device)
    centers = CenterLoss(5, 8).to(device)
    margin = PerClassMarginLoss([500, 200, 80, 30, 10]).to(device)
    proto = nn.Linear(8, 5, bias=False).to(device)
    x, y = torch.randn(64, 32, device=device), torch.randint(0, 5, (64,), device=device)
    e = body(x)
    cos = F.normalize(e) @ F.normalize(proto.weight).t()
    print((margin(cos, y) + 0.01 * centers(e, y)).item())


if __name__ == "__main__":
    main()
