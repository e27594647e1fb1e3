"""Mean-aggregation graph layer written by hand with index_add_; node degrees are counted in
forward.

Thread: https://github.com/thangvubk/SoftGroup/issues/215 (indices should be either on cpu or on the
same device as the indexed tensor); https://github.com/qitianwu/DIFFormer/issues/4.
"""
import torch
import torch.nn as nn


class MeanConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin_self, self.lin_nbr = nn.Linear(d_in, d_out), nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones(dst.numel()))  # expect: DEV006
        agg = agg / deg.clamp(min=1).unsqueeze(1)
        return torch.relu(self.lin_self(x) + self.lin_nbr(agg))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = MeanConv(8, 16), MeanConv(16, 4)

    def forward(self, x, ei):
        return self.c2(self.c1(x, ei), ei)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 30
    ei = torch.randint(0, n, (2, 120)).to(dev)
    x = torch.randn(n, 8).to(dev)
    print(Net().to(dev)(x, ei).shape)
