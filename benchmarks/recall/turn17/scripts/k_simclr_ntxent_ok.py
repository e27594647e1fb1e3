"""SimCLR pretraining on toy 3x24x24 images, NT-Xent loss, kNN monitor on a feature bank."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class NTXentLoss(nn.Module):
    def __init__(self, temperature=0.5):
        super().__init__()
        self.temperature = temperature

    def forward(self, z_i, z_j):
        n = z_i.shape[0]
        z = F.normalize(torch.cat([z_i, z_j], dim=0), dim=1)
        sim = z @ z.t() / self.temperature
        self_mask = torch.eye(2 * n, dtype=torch.bool, device=z.device)
        sim = sim.masked_fill(self_mask, float("-inf"))
        # positive of i is i+n (and vice versa)
        targets = torch.arange(2 * n, device=z.device).roll(n)
        return F.cross_entropy(sim, targets)


class SimCLR(nn.Module):
    def __init__(self, feat_dim=64, proj_dim=32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, 1, 1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, feat_dim, 3, 1, 1), nn.BatchNorm2d(feat_dim), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, proj_dim))

    def forward(self, x):
        h = self.backbone(x)
        return h, self.projector(h)


def two_views(x):
    def view(x):
        B = x.shape[0]
        shift = torch.randint(-3, 4, (2,)).tolist()
        v = torch.roll(x, shifts=shift, dims=(2, 3))
        gain = torch.empty(B, 3, 1, 1, device=x.device).uniform_(0.6, 1.4)
        return v * gain + 0.05 * torch.randn_like(v)
    return view(x), view(x)


@torch.no_grad()
def knn_accuracy(model, train_loader, test_loader, device, k=5):
    model.eval()
    feats, labels = [], []
    for x, y in train_loader:
        h, _ = model(x.to(device))
        feats.append(F.normalize(h, dim=1))
        labels.append(y.to(device))
    bank, bank_labels = torch.cat(feats), torch.cat(labels)
    correct = total = 0
    for x, y in test_loader:
        x, y = x.to(device), y.to(device)
        h, _ = model(x)
        sim = F.normalize(h, dim=1) @ bank.t()
        idx = sim.topk(k, dim=1).indices
        pred = bank_labels[idx].mode(dim=1).values
        correct += (pred == y).sum().item()
        total += y.numel()
    model.train()
    return correct / total


def toy_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    x = 0.2 * torch.rand(n, 3, 24, 24, generator=g)
    for i, c in enumerate(y.tolist()):
        x[i, c % 3, 4 * c:4 * c + 8, :] += 0.8
    return x, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--temperature", type=float, default=0.5)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    device = torch.device(args.device)

    x_tr, y_tr = toy_images(256, 0)
    x_te, y_te = toy_images(64, 1)
    train_loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=64, shuffle=True, drop_last=True)
    bank_loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=128)
    test_loader = DataLoader(TensorDataset(x_te, y_te), batch_size=128)

    model = SimCLR().to(device)
    criterion = NTXentLoss(args.temperature)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-6)

    for epoch in range(args.epochs):
        for x, _ in train_loader:
            xi, xj = two_views(x.to(device))
            _, zi = model(xi)
            _, zj = model(xj)
            loss = criterion(zi, zj)
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = knn_accuracy(model, bank_loader, test_loader, device)
        print(f"epoch {epoch} loss {loss.item():.3f} knn@5 {acc:.3f}")


if __name__ == "__main__":
    main()
