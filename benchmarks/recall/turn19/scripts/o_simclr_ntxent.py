"""SimCLR on toy 2-class image data, with a kNN monitor on the frozen features."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SimCLR(nn.Module):
    def __init__(self, feat_dim=64, proj_dim=32):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, feat_dim, 3, padding=1), nn.BatchNorm2d(feat_dim), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.projector = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, proj_dim))

    def forward(self, x):
        return self.projector(self.backbone(x))


def nt_xent(z1, z2, temperature=0.5):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.T / temperature
    sim.fill_diagonal_(float("-inf"))
    # positive of sample i is i+n (and vice versa)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])  # expect: DEV006
    return F.cross_entropy(sim, targets)


def augment(x):
    noise = 0.1 * torch.randn_like(x)
    shift = torch.randint(-3, 4, (2,)).tolist()
    x = torch.roll(x, shifts=shift, dims=(2, 3))
    if torch.rand(1).item() < 0.5:
        x = x.flip(3)
    return (x + noise).clamp(0, 1)


@torch.no_grad()
def embed(backbone, loader, device):
    feats, labels = [], []
    for x, y in loader:
        feats.append(F.normalize(backbone(x.to(device)), dim=1))
        labels.append(y)
    return torch.cat(feats), torch.cat(labels)


@torch.no_grad()
def knn_accuracy(model, train_loader, test_loader, device, k=5):
    model.eval()
    train_f, train_y = embed(model.backbone, train_loader, device)
    test_f, test_y = embed(model.backbone, test_loader, device)
    model.train()
    train_f = train_f.numpy()  # expect: DEV011
    test_f = test_f.cpu().numpy()
    sims = test_f @ train_f.T
    nn_idx = np.argsort(-sims, axis=1)[:, :k]
    votes = train_y.numpy()[nn_idx]
    pred = np.array([np.bincount(v).argmax() for v in votes])
    return float((pred == test_y.numpy()).mean())


def toy_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    x = torch.rand(n, 3, 16, 16, generator=g) * 0.3
    x[y == 0, 0, 4:12, 4:12] += 0.7
    x[y == 1, 2, :, 6:10] += 0.7
    return TensorDataset(x.clamp(0, 1), y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--temperature", type=float, default=0.5)
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"

    train_ds, test_ds = toy_images(64, 0), toy_images(32, 1)
    train_loader = DataLoader(train_ds, batch_size=args.bs, shuffle=True, drop_last=True)
    plain_train = DataLoader(train_ds, batch_size=64)
    plain_test = DataLoader(test_ds, batch_size=64)

    model = SimCLR().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    for epoch in range(args.epochs):
        for x, _ in train_loader:
            x = x.to(device)
            loss = nt_xent(model(augment(x)), model(augment(x)), args.temperature)
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = knn_accuracy(model, plain_train, plain_test, device)
        print(f"epoch {epoch}: loss {loss.item():.3f}  kNN acc {acc:.3f}")


if __name__ == "__main__":
    main()
