"""GCN with symmetric normalisation computed from edge_index in forward."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def propagate(h, edge_index):
    n = h.size(0)
    loops = torch.arange(n, device=h.device)
    row = torch.cat([edge_index[0], loops])
    col = torch.cat([edge_index[1], loops])
    edge_weight = torch.ones(row.numel(), device=h.device, dtype=h.dtype)
    deg = torch.zeros(n, device=h.device).index_add_(0, col, torch.ones_like(col, dtype=h.dtype))
    norm = deg[row].rsqrt() * edge_weight * deg[col].rsqrt()
    return torch.zeros_like(h).index_add_(0, col, h[row] * norm[:, None])


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, out_dim, dropout=0.5):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hidden)
        self.lin2 = nn.Linear(hidden, out_dim)
        self.dropout = dropout

    def forward(self, x, edge_index):
        h = F.relu(propagate(self.lin1(x), edge_index))
        h = F.dropout(h, self.dropout, self.training)
        return propagate(self.lin2(h), edge_index)
