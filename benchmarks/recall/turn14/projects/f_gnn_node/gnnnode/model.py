import torch
import torch.nn as nn
import torch.nn.functional as F


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def segment_softmax(scores, index, num_segments):
    """Softmax of `scores` (E, H) within groups given by `index` (E,)."""
    heads = scores.size(1)
    seg_max = scores.new_full((num_segments, heads), float("-inf"))
    seg_max = seg_max.scatter_reduce(0, index.unsqueeze(1).expand_as(scores), scores, reduce="amax")
    exp = (scores - seg_max[index]).exp()
    denom = scores.new_zeros(num_segments, heads).index_add_(0, index, exp)
    return exp / denom[index].clamp(min=1e-16)


class GATLayer(nn.Module):
    def __init__(self, in_dim, out_dim, heads, concat=True, dropout=0.0):
        super().__init__()
        self.heads, self.out_dim, self.concat = heads, out_dim, concat
        self.lin = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.att_src = nn.Parameter(torch.empty(1, heads, out_dim))
        self.att_dst = nn.Parameter(torch.empty(1, heads, out_dim))
        self.bias = nn.Parameter(torch.zeros(heads * out_dim if concat else out_dim))
        self.dropout = dropout
        nn.init.xavier_uniform_(self.lin.weight)
        nn.init.xavier_uniform_(self.att_src)
        nn.init.xavier_uniform_(self.att_dst)

    def forward(self, x, edge_index):
        n = x.size(0)
        h = self.lin(x).view(n, self.heads, self.out_dim)
        src, dst = edge_index
        alpha = (h * self.att_src).sum(-1)[src] + (h * self.att_dst).sum(-1)[dst]
        alpha = segment_softmax(F.leaky_relu(alpha, 0.2), dst, n)
        alpha = F.dropout(alpha, self.dropout, self.training)
        out = h.new_zeros(n, self.heads, self.out_dim).index_add_(0, dst, h[src] * alpha.unsqueeze(-1))
        out = out.flatten(1) if self.concat else out.mean(dim=1)
        return out + self.bias


class GAT(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, heads=4, n_layers=2, dropout=0.3, feature_scale=None):
        super().__init__()
        dims = [in_dim] + [hidden * heads] * (n_layers - 1)
        self.layers = nn.ModuleList(GATLayer(d, hidden, heads, dropout=dropout) for d in dims)
        self.out = GATLayer(hidden * heads, n_classes, 1, concat=False, dropout=dropout)
        self.dropout = dropout
        if feature_scale is None:
            feature_scale = torch.ones(in_dim)
        self.register_buffer("feature_scale", feature_scale)

    def forward(self, x, edge_index):
        edge_index = add_self_loops(edge_index, x.size(0))
        x = x * self.feature_scale
        for layer in self.layers:
            x = F.elu(layer(F.dropout(x, self.dropout, self.training), edge_index))
        return self.out(F.dropout(x, self.dropout, self.training), edge_index)
