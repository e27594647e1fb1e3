import torch
import torch.nn as nn
import torch.nn.functional as F


def gcn_norm(edge_index, num_nodes):
    device = edge_index.device
    loops = torch.arange(num_nodes, device=device)
    row = torch.cat([edge_index[0], loops])
    col = torch.cat([edge_index[1], loops])
    deg = torch.zeros(num_nodes, device=device).scatter_add_(0, row, torch.ones_like(row, dtype=torch.float))
    return row, col, deg[row].rsqrt() * deg[col].rsqrt()


class GCNConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x, edge_index):
        row, col, w = gcn_norm(edge_index, x.size(0))
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, col, h[row] * w[:, None])
        return out + self.bias


class Encoder(nn.Module):
    def __init__(self, in_dim, hidden, out_dim):
        super().__init__()
        self.convs = nn.ModuleList([GCNConv(in_dim, hidden), GCNConv(hidden, out_dim)])
        self.proj = nn.Sequential(nn.Linear(out_dim, out_dim), nn.ELU(), nn.Linear(out_dim, out_dim))

    def embed(self, x, edge_index):
        for conv in self.convs:
            x = F.elu(conv(x, edge_index))
        return x

    def forward(self, x, edge_index):
        return self.proj(self.embed(x, edge_index))
