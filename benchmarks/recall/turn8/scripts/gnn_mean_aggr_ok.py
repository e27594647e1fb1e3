"""Hand-written mean aggregation with degrees counted on the features' device.

Look-alike of gnn_mean_aggr_degree.py. Thread: https://github.com/thangvubk/SoftGroup/issues/215
"""
import torch
import torch.nn as nn


class MeanConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(2 * d_in, d_out)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.zeros(x.size(0), device=x.device).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        return torch.relu(self.lin(torch.cat([x, agg / deg.clamp(min=1).unsqueeze(1)], 1)))


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    conv = MeanConv(8, 4).to(dev)
    print(conv(torch.randn(30, 8, device=dev), torch.randint(0, 30, (2, 90), device=dev)).shape)
