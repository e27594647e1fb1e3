"""Pool-based active learning with max-entropy acquisition.

Each round: train on the labelled set, score the unlabelled pool, query the
top-k most uncertain points from the oracle, repeat.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Subset, TensorDataset


def build_model(d_in, n_cls):
    return nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, n_cls))


def train_round(model, loader, device, epochs=3, lr=1e-2):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for _ in range(epochs):
        for xb, yb in loader:
            model.to(device)  # expect: DEV007
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return loss.item()


@torch.no_grad()
def predictive_entropy(model, pool_loader):
    model.eval()
    ents = []
    for xb, _ in pool_loader:
        probs = F.softmax(model(xb), dim=1)  # expect: DEV002
        ents.append(-(probs * probs.clamp_min(1e-12).log()).sum(1))
    return torch.cat(ents)


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    for xb, yb in loader:
        pred = model(xb.to(device)).argmax(1).cpu()
        correct += (pred == yb).sum().item()
        total += len(yb)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--query", type=int, default=20)
    ap.add_argument("--init", type=int, default=20)
    ap.add_argument("--gpu", action="store_true", help="use CUDA when available")
    args = ap.parse_args()
    device = torch.device("cuda" if args.gpu and torch.cuda.is_available() else "cpu")

    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    x = torch.randn(500, 10)
    y = ((x[:, 0] + 0.5 * x[:, 1] ** 2) > 0.5).long()
    full = TensorDataset(x, y)
    test = TensorDataset(torch.randn(200, 10), torch.zeros(200, dtype=torch.long))
    test.tensors[1][:] = ((test.tensors[0][:, 0] + 0.5 * test.tensors[0][:, 1] ** 2) > 0.5).long()

    labelled = list(rng.choice(len(full), args.init, replace=False))
    for r in range(args.rounds):
        pool = sorted(set(range(len(full))) - set(labelled))
        model = build_model(10, 2)
        lab_loader = DataLoader(Subset(full, labelled), batch_size=16, shuffle=True)
        last = train_round(model, lab_loader, device)

        pool_loader = DataLoader(Subset(full, pool), batch_size=64)
        scores = predictive_entropy(model, pool_loader).numpy()  # expect: DEV011
        top = np.argsort(-scores)[: args.query]
        labelled.extend(pool[i] for i in top)
        acc = accuracy(model, DataLoader(test, batch_size=100), device)
        print(f"round {r}: labelled={len(labelled)} loss={last:.3f} test_acc={acc:.3f}")


if __name__ == "__main__":
    main()
