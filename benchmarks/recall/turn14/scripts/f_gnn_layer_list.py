"""GraphSAGE-style node classifier with a configurable number of layers.

Mean aggregation is done with index_add_ over edge_index (no torch_geometric
on the cluster), embeddings of the last hidden layer are plotted with PCA.
"""
import argparse
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAGELayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin_self = nn.Linear(in_dim, out_dim)
        self.lin_neigh = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.zeros(x.size(0), device=x.device).index_add_(0, dst, torch.ones(dst.numel(), device=x.device))
        agg = agg / deg.clamp(min=1.0).unsqueeze(1)
        return self.lin_self(x) + self.lin_neigh(agg)


class GraphSAGE(nn.Module):
    def __init__(self, dims, dropout=0.3):
        super().__init__()
        self.layers = [SAGELayer(d_in, d_out) for d_in, d_out in zip(dims[:-1], dims[1:])]  # expect: DEV009
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, edge_index):
        for layer in self.layers[:-1]:
            x = self.dropout(F.relu(layer(x, edge_index)))
        return self.layers[-1](x, edge_index)

    @torch.no_grad()
    def embed(self, x, edge_index):
        for layer in self.layers[:-1]:
            x = F.relu(layer(x, edge_index))
        return x


def random_graph(n_nodes=120, n_classes=3, n_feats=8, avg_degree=6, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n_nodes)
    src, dst = [], []
    for i in range(n_nodes):
        same = np.flatnonzero(y == y[i])
        nbrs = rng.choice(same, size=avg_degree // 2, replace=False)
        nbrs = np.concatenate([nbrs, rng.integers(0, n_nodes, size=1)])
        src.extend([i] * len(nbrs))
        dst.extend(nbrs.tolist())
    edge_index = torch.tensor([src + dst, dst + src], dtype=torch.long)
    feats = np.eye(n_classes)[y] @ rng.normal(size=(n_classes, n_feats)) + rng.normal(scale=1.0, size=(n_nodes, n_feats))
    return torch.tensor(feats, dtype=torch.float32), edge_index, torch.tensor(y)


def pca_2d(a):
    a = a - a.mean(axis=0, keepdims=True)
    _, _, vt = np.linalg.svd(a, full_matrices=False)
    return a @ vt[:2].T


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, nargs="+", default=[32, 32])
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "sage_embeddings.png"))
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, edge_index, y = random_graph()
    x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)

    model = GraphSAGE([x.size(1), *args.hidden, int(y.max()) + 1]).to(device)
    params = [p for layer in model.layers for p in layer.parameters()]
    optimizer = torch.optim.Adam(params, lr=0.01)

    for epoch in range(args.epochs):
        for layer in model.layers:
            layer.train()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x, edge_index), y)
        loss.backward()
        optimizer.step()
        if epoch % 20 == 0:
            print(f"epoch {epoch:3d}  loss {loss.item():.4f}")

    for layer in model.layers:
        layer.eval()
    emb = model.embed(x, edge_index)
    coords = pca_2d(emb.numpy())  # expect: DEV011
    plt.figure(figsize=(5, 5))
    plt.scatter(coords[:, 0], coords[:, 1], c=y.cpu().numpy(), s=12, cmap="tab10")
    plt.title("hidden embeddings (PCA)")
    plt.savefig(args.out)
    print("saved", args.out)


if __name__ == "__main__":
    main()
