"""Two-layer GCN written by hand (edge_index, symmetric degree normalisation) on a synthetic citation graph."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_graph(num_nodes=200, num_feats=32, num_classes=4, p_in=0.05, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, num_classes, (num_nodes,), generator=g)
    same = labels[:, None] == labels[None, :]
    prob = torch.where(same, torch.tensor(p_in), torch.tensor(p_in / 10))
    adj = torch.rand(num_nodes, num_nodes, generator=g) < prob
    adj = adj | adj.T
    adj.fill_diagonal_(False)
    edge_index = adj.nonzero().T.contiguous()
    feats = torch.randn(num_nodes, num_feats, generator=g) + F.one_hot(labels, num_feats).float()
    return feats, edge_index, labels


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.empty(out_dim))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.xavier_uniform_(self.lin.weight)
        nn.init.zeros_(self.bias)

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n, device=x.device)
        ei = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
        row, col = ei
        deg = torch.zeros(n).scatter_add_(0, col, torch.ones(col.numel(), device=x.device))  # expect: DEV006
        inv_sqrt = deg.pow(-0.5)
        norm = inv_sqrt[row] * inv_sqrt[col]
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, col, h[row] * norm.unsqueeze(1))
        return out + self.bias


class GCN(nn.Module):
    def __init__(self, dims, dropout=0.5):
        super().__init__()
        self.layers = [GCNLayer(dims[i], dims[i + 1]) for i in range(len(dims) - 2)]  # expect: DEV009
        self.out = GCNLayer(dims[-2], dims[-1])
        self.dropout = dropout

    def reset_parameters(self):
        for layer in self.layers:
            layer.reset_parameters()
        self.out.reset_parameters()

    def forward(self, x, edge_index):
        for layer in self.layers:
            x = F.relu(layer(F.dropout(x, self.dropout, self.training), edge_index))
        return self.out(F.dropout(x, self.dropout, self.training), edge_index)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--hidden", type=int, default=16)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    feats, edge_index, labels = make_graph()
    perm = torch.randperm(labels.numel())
    train_idx, test_idx = perm[:120], perm[120:]

    model = GCN([feats.size(1), args.hidden, args.hidden, int(labels.max()) + 1]).to(device)
    x, edge_index = feats.to(device), edge_index.to(device)
    params = [p for layer in model.layers for p in layer.parameters()] + list(model.parameters())
    opt = torch.optim.Adam(params, lr=0.01, weight_decay=5e-4)

    for epoch in range(args.epochs):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_idx], labels[train_idx])  # expect: DEV004
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    with torch.no_grad():
        pred = model(x, edge_index).argmax(1).cpu()
    print("test acc", (pred[test_idx] == labels[test_idx]).float().mean().item())


if __name__ == "__main__":
    main()
