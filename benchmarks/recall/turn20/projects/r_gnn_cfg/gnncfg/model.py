import torch
import torch.nn as nn
import torch.nn.functional as F


class GINLayer(nn.Module):
    def __init__(self, d_in, d_out, eps=0.0):
        super().__init__()
        self.eps = nn.Parameter(torch.tensor([eps]))
        self.mlp = nn.Sequential(nn.Linear(d_in, d_out), nn.BatchNorm1d(d_out), nn.ReLU(),
                                 nn.Linear(d_out, d_out))

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        return self.mlp((1 + self.eps) * x + agg)


def global_add_pool(x, batch, num_graphs):
    return torch.zeros(num_graphs, x.size(-1), device=x.device, dtype=x.dtype).index_add_(0, batch, x)


class GIN(nn.Module):
    def __init__(self, in_dim, hidden, n_cls, num_layers=3, dropout=0.1):
        super().__init__()
        dims = [in_dim] + [hidden] * num_layers
        self.layers = [GINLayer(a, b) for a, b in zip(dims[:-1], dims[1:])]  # expect: DEV009
        self.readout = nn.Linear(hidden * num_layers, n_cls)
        self.dropout = dropout

    def forward(self, x, edge_index, batch, num_graphs):
        pooled = []
        for layer in self.layers:
            x = F.relu(layer(x, edge_index))
            pooled.append(global_add_pool(x, batch, num_graphs))
        h = torch.cat(pooled, dim=-1)
        return self.readout(F.dropout(h, self.dropout, self.training))
