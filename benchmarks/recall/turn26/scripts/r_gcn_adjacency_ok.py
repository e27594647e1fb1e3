"""Hand-written GCN: layers in nn.ModuleList, degrees built on the edge_index's device, labels moved."""
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


def gcn_norm(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device)
    ei = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
    row, col = ei
    deg = torch.zeros(num_nodes, device=edge_index.device)
    deg.scatter_add_(0, col, torch.ones_like(col, dtype=deg.dtype))
    inv_sqrt = deg.pow(-0.5)
    return ei, inv_sqrt[row] * inv_sqrt[col]


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.empty(out_dim))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.xavier_uniform_(self.lin.weight)
        nn.init.zeros_(self.bias)

    def forward(self, x, ei, norm):
        h = self.lin(x)
        row, col = ei
        return torch.zeros_like(h).index_add_(0, col, h[row] * norm[:, None]) + self.bias


class GCN(nn.Module):
    def __init__(self, dims, dropout=0.5):
        super().__init__()
        self.layers = nn.ModuleList(GCNLayer(dims[i], dims[i + 1]) for i in range(len(dims) - 1))
        self.dropout = dropout

    def forward(self, x, edge_index):
        ei, norm = gcn_norm(edge_index, x.size(0))
        for i, layer in enumerate(self.layers):
            x = layer(F.dropout(x, self.dropout, self.training), ei, norm)
            if i < len(self.layers) - 1:
                x = F.relu(x)
        return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    feats, edge_index, labels = make_graph()
    perm = torch.randperm(labels.numel())
    train_idx, test_idx = perm[:120], perm[120:]  # CPU index tensors, used on device tensors below

    model = GCN([feats.size(1), 16, 16, int(labels.max()) + 1]).to(device)
    x, edge_index, y = feats.to(device), edge_index.to(device), labels.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for _ in range(args.epochs):
        model.train()
        loss = F.cross_entropy(model(x, edge_index)[train_idx], y[train_idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(x, edge_index).argmax(1)
    print("test acc", (pred[test_idx] == y[test_idx]).float().mean().item())


if __name__ == "__main__":
    main()
