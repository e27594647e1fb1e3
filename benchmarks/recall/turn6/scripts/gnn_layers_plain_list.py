"""Graph isomorphism network with a configurable depth; the per-layer MLPs and batch norms are
kept in lists built from the depth argument."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GIN(nn.Module):
    def __init__(self, d_in, hidden, n_cls, depth=3):
        super().__init__()
        dims = [d_in] + [hidden] * depth
        self.mlps = [nn.Sequential(nn.Linear(a, b), nn.ReLU(), nn.Linear(b, b)) for a, b in zip(dims, dims[1:])]  # expect: DEV009
        self.eps = nn.Parameter(torch.zeros(depth))
        self.out = nn.Linear(hidden, n_cls)

    def forward(self, x, edge_index):
        src, dst = edge_index
        for i, mlp in enumerate(self.mlps):
            agg = torch.zeros_like(x).index_add_(0, dst, x[src])
            x = F.relu(mlp((1 + self.eps[i]) * x + agg))
        return self.out(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 100
    x = torch.randn(n, 6).to(device)
    edge_index = torch.randint(0, n, (2, 400)).to(device)
    y = (x[:, 0] > 0).long()
    model = GIN(6, 16, 2).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(20):
        loss = F.cross_entropy(model(x, edge_index), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
