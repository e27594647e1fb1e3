"""Face-embedding training with a CosFace-style margin loss module holding learnable class centres
and a per-class margin table (harder classes get a larger margin)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class CosMarginLoss(nn.Module):
    def __init__(self, dim, num_classes, scale=30.0, margin=0.35, hard_classes=()):
        super().__init__()
        self.centres = nn.Parameter(torch.randn(num_classes, dim) * 0.01)
        self.scale = scale
        margins = torch.full((num_classes,), margin)
        margins[list(hard_classes)] = margin + 0.1
        self.class_margins = margins  # expect: DEV010

    def forward(self, emb, labels):
        cos = F.normalize(emb) @ F.normalize(self.centres).t()
        m = self.class_margins[labels]
        onehot = F.one_hot(labels, cos.size(1)).to(cos.dtype)
        return F.cross_entropy(self.scale * (cos - onehot * m[:, None]), labels)


class Embedder(nn.Module):
    def __init__(self, d_in=64, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, dim))

    def forward(self, x):
        return self.net(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", type=int, default=20)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(4000, 64)
    y = torch.randint(0, args.classes, (4000,))
    loader = DataLoader(TensorDataset(x, y), batch_size=128, shuffle=True, drop_last=True)
    model = Embedder().to(device)
    criterion = CosMarginLoss(32, args.classes, hard_classes=(3, 7)).to(device)
    opt = torch.optim.SGD(list(model.parameters()) + list(criterion.parameters()), lr=0.1, momentum=0.9)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
