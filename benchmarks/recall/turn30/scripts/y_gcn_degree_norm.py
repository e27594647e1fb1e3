"""Two-layer GCN written by hand (index_add_ message passing, symmetric degree normalisation)
on a synthetic two-community graph; node classification with train/test masks."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_graph(n_per_class=40, p_in=0.15, p_out=0.01, feat_dim=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    n = 2 * n_per_class
    y = torch.cat([torch.zeros(n_per_class), torch.ones(n_per_class)]).long()
    same = y[:, None] == y[None, :]
    prob = torch.where(same, torch.full((n, n), p_in), torch.full((n, n), p_out))
    adj = torch.rand(n, n, generator=g) < prob
    adj = torch.triu(adj, diagonal=1)
    adj = adj | adj.T
    edge_index = adj.nonzero().T.contiguous()
    x = torch.randn(n, feat_dim, generator=g) + y[:, None].float()
    train_mask = torch.rand(n, generator=g) < 0.5
    return x, edge_index, y, train_mask


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n, device=x.device)
        edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
        row, col = edge_index
        deg = torch.zeros(n).index_add_(0, col, torch.ones(col.numel()))  # expect: DEV006
        norm = deg[row].rsqrt() * deg[col].rsqrt()
        h = self.lin(x)
        out = torch.zeros_like(h)
        out.index_add_(0, col, h[row] * norm.unsqueeze(-1))
        return out


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, n_layers=2):
        super().__init__()
        dims = [in_dim] + [hidden] * n_layers
        self.layers = [GCNLayer(a, b) for a, b in zip(dims[:-1], dims[1:])]  # expect: DEV009
        self.classifier = nn.Linear(hidden, n_classes)
        self.dropout = nn.Dropout(0.3)

    def forward(self, x, edge_index):
        for layer in self.layers:
            x = self.dropout(F.relu(layer(x, edge_index)))
        return self.classifier(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=50)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")

    x, edge_index, y, train_mask = make_graph()
    x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
    test_mask = ~train_mask

    model = GCN(x.size(1), 32, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(args.epochs):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    model.eval()
    with torch.no_grad():
        pred = model(x, edge_index).argmax(dim=1)
    acc = (pred[test_mask] == y[test_mask]).float().mean().item()
    print(f"loss {loss.item():.4f} test acc {acc:.3f}")


if __name__ == "__main__":
    main()
