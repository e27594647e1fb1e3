"""Node classification with a GCN whose propagation matrix is precomputed
and registered on the module, edge dropout during training, and the usual
train/val/test node masks.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def planted_partition(n_per=50, k=3, p_in=0.2, p_out=0.01, dim=12, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.arange(k).repeat_interleave(n_per)
    n = y.numel()
    p = torch.full((n, n), p_out)
    p[y[:, None] == y[None, :]] = p_in
    a = torch.triu(torch.rand(n, n, generator=g) < p, 1)
    edge_index = (a | a.t()).nonzero().t()
    x = torch.randn(k, dim, generator=g)[y] + torch.randn(n, dim, generator=g)
    perm = torch.randperm(n, generator=g)
    masks = {name: torch.zeros(n, dtype=torch.bool) for name in ("train", "val", "test")}
    masks["train"][perm[:30]] = True
    masks["val"][perm[30:60]] = True
    masks["test"][perm[60:]] = True
    return x, edge_index, y, masks


def normalized_adjacency(edge_index, n):
    a = torch.zeros(n, n)
    a[edge_index[0], edge_index[1]] = 1.0
    a = a + torch.eye(n)
    d = a.sum(1).pow(-0.5)
    return d[:, None] * a * d[None, :]


class DenseGCN(nn.Module):
    def __init__(self, adj, in_dim, hidden, classes, edge_drop=0.2):
        super().__init__()
        self.register_buffer("adj", adj)
        self.l1 = nn.Linear(in_dim, hidden)
        self.l2 = nn.Linear(hidden, classes)
        self.edge_drop = edge_drop

    def propagate(self, h):
        adj = self.adj
        if self.training and self.edge_drop > 0:
            keep = torch.rand(adj.shape, device=adj.device) > self.edge_drop
            adj = adj * keep
        return adj @ h

    def forward(self, x):
        h = F.relu(self.propagate(self.l1(x)))
        h = F.dropout(h, 0.5, self.training)
        return self.propagate(self.l2(h))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--cuda", action="store_true", default=torch.cuda.is_available())
    args = p.parse_args()

    device = torch.device("cuda" if args.cuda and torch.cuda.is_available() else "cpu")
    x, edge_index, y, masks = planted_partition()
    adj = normalized_adjacency(edge_index, x.size(0))
    model = DenseGCN(adj, x.size(1), 32, int(y.max()) + 1).to(device)
    x, y = x.to(device), y.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)

    best_val, best_state = 0.0, None
    for epoch in range(args.epochs):
        model.train()
        out = model(x)
        loss = F.cross_entropy(out[masks["train"]], y[masks["train"]])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        model.eval()
        with torch.no_grad():
            pred = model(x).argmax(-1)
        val_acc = (pred[masks["val"]] == y[masks["val"]]).float().mean().item()
        if val_acc >= best_val:
            best_val = val_acc
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        if epoch % 20 == 0:
            print(f"epoch {epoch:3d} loss {loss.item():.4f} val {val_acc:.3f}")

    model.load_state_dict(best_state)
    model.eval()
    with torch.no_grad():
        pred = model(x).argmax(-1)
    test_idx = masks["test"].nonzero().squeeze(1)
    test_acc = (pred[test_idx] == y[test_idx]).float().mean().item()
    print(f"best val {best_val:.3f}  test {test_acc:.3f}")


if __name__ == "__main__":
    main()
