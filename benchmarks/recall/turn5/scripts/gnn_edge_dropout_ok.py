"""Hand-written GCN with edge dropout and degree normalisation, device-correct: the CPU dropout
mask only indexes (CPU boolean masks may index CUDA tensors), degrees are built on x's device."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index, edge_weight=None):
        src, dst = edge_index
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1), device=x.device)
        deg = torch.zeros(x.size(0), device=x.device).index_add_(0, dst, edge_weight)
        norm = deg.clamp(min=1).rsqrt()
        msg = self.lin(x)[src] * (norm[src] * edge_weight * norm[dst])[:, None]
        return torch.zeros(x.size(0), msg.size(1), device=x.device).index_add_(0, dst, msg)


def drop_edges(edge_index, p):
    keep = torch.rand(edge_index.size(1)) >= p
    return edge_index[:, keep]


class GCN(nn.Module):
    def __init__(self, d_in, hidden, classes, p_edge=0.2):
        super().__init__()
        self.l1, self.l2 = GCNLayer(d_in, hidden), GCNLayer(hidden, classes)
        self.p_edge = p_edge

    def forward(self, x, edge_index):
        if self.training:
            edge_index = drop_edges(edge_index, self.p_edge)
        return self.l2(F.relu(self.l1(x, edge_index)), edge_index)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=50)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 400
    x = torch.randn(n, 12).to(device)
    edge_index = torch.randint(0, n, (2, 2400)).to(device)
    y = x[:, :3].argmax(1)
    model = GCN(12, 32, 3).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        model.train()
        loss = F.cross_entropy(model(x, edge_index), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
