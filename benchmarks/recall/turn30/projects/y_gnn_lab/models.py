"""Weighted GCN: A_hat = D^-1/2 (A + I) D^-1/2 with edge weights, messages summed with index_add_."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WeightedGCNConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index, edge_weight):
        n = x.size(0)
        loops = torch.arange(n, device=edge_index.device)
        edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
        loop_weight = torch.ones(n)  # expect: DEV006
        edge_weight = torch.cat([edge_weight, loop_weight])
        row, col = edge_index
        deg = torch.zeros_like(x[:, 0]).index_add_(0, col, edge_weight)
        norm = deg[row].rsqrt() * edge_weight * deg[col].rsqrt()
        h = self.lin(x)
        return torch.zeros_like(h).index_add_(0, col, h[row] * norm.unsqueeze(-1))


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, num_layers=2, dropout=0.5):
        super().__init__()
        dims = [in_dim] + [hidden] * (num_layers - 1) + [n_classes]
        self.convs = nn.ModuleList(WeightedGCNConv(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.dropout = dropout

    def forward(self, x, edge_index, edge_weight):
        for i, conv in enumerate(self.convs):
            x = conv(x, edge_index, edge_weight)
            if i < len(self.convs) - 1:
                x = F.dropout(F.relu(x), self.dropout, self.training)
        return x
