"""Evaluate a metric-learning embedding checkpoint with k-NN classification.

Builds a memory bank from the gallery split, classifies the query split by a
weighted vote of the k nearest neighbours, reports accuracy with torchmetrics.

    python q_knn_eval_metric_ok.py --ckpt runs/triplet/best.pt [--cpu]
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torchmetrics.classification import MulticlassAccuracy


class Embedder(nn.Module):
    def __init__(self, in_dim=64, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, dim))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


def synthetic_split(n, num_classes, in_dim, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(num_classes, in_dim, generator=torch.Generator().manual_seed(123))
    y = torch.randint(0, num_classes, (n,), generator=g)
    x = protos[y] + 0.5 * torch.randn(n, in_dim, generator=g)
    return TensorDataset(x, y)


@torch.no_grad()
def embed_all(model, loader, device):
    feats, labels = [], []
    for x, y in loader:
        feats.append(model(x.to(device)))
        labels.append(y.to(device))
    return torch.cat(feats), torch.cat(labels)


@torch.no_grad()
def knn_predict(query, bank, bank_labels, num_classes, k=10, t=0.07):
    sim = query @ bank.T
    top_sim, top_idx = sim.topk(k, dim=1)
    votes = torch.zeros(query.size(0), num_classes, device=query.device)
    votes.scatter_add_(1, bank_labels[top_idx], (top_sim / t).exp())
    return votes.argmax(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")

    model = Embedder()
    state = torch.load(args.ckpt, map_location="cpu")
    model.load_state_dict(state["model"] if "model" in state else state)
    model.to(device).eval()

    gallery = DataLoader(synthetic_split(2000, args.classes, 64, 0), batch_size=256)
    queries = DataLoader(synthetic_split(500, args.classes, 64, 1), batch_size=256)
    bank, bank_labels = embed_all(model, gallery, device)

    accuracy = MulticlassAccuracy(num_classes=args.classes, average="macro").to(device)
    per_class = MulticlassAccuracy(num_classes=args.classes, average=None).to(device)
    for x, y in queries:
        x, y = x.to(device), y.to(device)
        pred = knn_predict(model(x), bank, bank_labels, args.classes, k=args.k)
        accuracy.update(pred, y)
        per_class.update(pred, y)
    print(f"kNN@{args.k} accuracy: {accuracy.compute().item():.4f}")
    for c, a in enumerate(per_class.compute().tolist()):
        print(f"  class {c}: {a:.3f}")


if __name__ == "__main__":
    main()
