"""Correct look-alike: the same hand-written attention layer with every scatter target made from
the features (h.new_full / h.new_zeros), a degree vector from torch.bincount of the on-device
edge list, and a CPU index tensor (the labelled node ids from a NumPy split) used to pick rows of
device tensors, which PyTorch allows.

Thread: https://github.com/rusty1s/pytorch_scatter/issues/297 (scatter-based message passing).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GATLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out, bias=False)
        self.att = nn.Parameter(torch.randn(2, d_out) * 0.1)

    def forward(self, x, edge_index):
        src, dst = edge_index
        h = self.lin(x)
        n = x.size(0)
        e = F.leaky_relu((h * self.att[0]).sum(-1)[src] + (h * self.att[1]).sum(-1)[dst], 0.2)
        e_max = h.new_full((n,), float("-inf")).scatter_reduce(0, dst, e, reduce="amax")
        w = (e - e_max[dst]).exp()
        alpha = w / h.new_zeros(n).index_add_(0, dst, w)[dst]
        return h.new_zeros(n, h.size(1)).index_add_(0, dst, alpha[:, None] * h[src])


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 200
    adj = torch.rand(n, n, device=device) < 0.03
    edge_index = (adj | adj.T | torch.eye(n, dtype=torch.bool, device=device)).nonzero().T
    degree = torch.bincount(edge_index[1], minlength=n).float()
    y = torch.randint(0, 3, (n,), device=device)
    x = torch.cat([F.one_hot(y, 3).float() + 0.8 * torch.randn(n, 3, device=device), degree[:, None].log()], 1)
    labelled = torch.from_numpy(np.random.default_rng(0).choice(n, 60, replace=False))
    l1, l2 = GATLayer(4, 16).to(device), GATLayer(16, 3).to(device)
    opt = torch.optim.Adam([*l1.parameters(), *l2.parameters()], lr=0.01)
    for epoch in range(50):
        out = l2(F.elu(l1(x, edge_index)), edge_index)
        loss = F.cross_entropy(out[labelled], y[labelled])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"train loss {loss.item():.3f}")
