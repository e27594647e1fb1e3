"""Kipf & Welling style GCN with a torch.sparse normalised adjacency, depth set by a flag."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def normalized_adjacency(edges, n):
    """D^-1/2 (A + I) D^-1/2 as a sparse COO tensor."""
    loops = np.arange(n)
    rows = np.concatenate([edges[0], edges[1], loops])
    cols = np.concatenate([edges[1], edges[0], loops])
    deg = np.bincount(rows, minlength=n).astype(np.float32)
    vals = 1.0 / np.sqrt(deg[rows] * deg[cols])
    idx = torch.from_numpy(np.stack([rows, cols])).long()
    return torch.sparse_coo_tensor(idx, torch.from_numpy(vals.astype(np.float32)), (n, n)).coalesce()


class GraphConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_dim, out_dim))
        self.bias = nn.Parameter(torch.zeros(out_dim))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, adj):
        return torch.sparse.mm(adj, x @ self.weight) + self.bias


class DeepGCN(nn.Module):
    def __init__(self, in_dim, hidden, n_cls, depth):
        super().__init__()
        dims = [in_dim] + [hidden] * (depth - 1)
        self.hidden_layers = [GraphConv(a, b) for a, b in zip(dims[:-1], dims[1:])]  # expect: DEV009
        self.out = GraphConv(hidden, n_cls)

    def parameters_for_optimizer(self):
        params = list(self.out.parameters())
        for layer in self.hidden_layers:
            params += list(layer.parameters())
        return params

    def forward(self, x, adj):
        for layer in self.hidden_layers:
            x = F.relu(layer(x, adj))
        return self.out(x, adj)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    rng = np.random.default_rng(1)
    n, d, k = 80, 10, 4
    labels = rng.integers(0, k, n)
    feats = (rng.normal(size=(n, d)) + labels[:, None] * 0.8).astype(np.float32)
    edges = np.stack([rng.integers(0, n, 240), rng.integers(0, n, 240)])

    adj = normalized_adjacency(edges, n)
    adj.to(device)  # expect: DEV005
    x = torch.from_numpy(feats).to(device)
    y = torch.from_numpy(labels).to(device)
    train_mask = torch.zeros(n, dtype=torch.bool, device=device)
    train_mask[: n // 2] = True

    model = DeepGCN(d, 32, k, args.depth).to(device)
    opt = torch.optim.Adam(model.parameters_for_optimizer(), lr=0.01)
    for epoch in range(args.epochs):
        logits = model(x, adj)
        loss = F.cross_entropy(logits[train_mask], y[train_mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
    acc = (logits.argmax(1)[~train_mask] == y[~train_mask]).float().mean().item()
    print(f"loss {loss.item():.3f} test acc {acc:.3f}")


if __name__ == "__main__":
    main()
