"""A hand-written weighted graph convolution: when no edge weights are given, unit weights are
made in forward for every edge."""
import torch
import torch.nn as nn


class WeightedConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index, edge_weight=None):
        src, dst = edge_index
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1))  # expect: DEV006
        msg = self.lin(x)[src] * edge_weight.unsqueeze(-1)
        out = torch.zeros(x.size(0), self.lin.out_features, device=x.device)
        return out.index_add_(0, dst, msg)


class GNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = WeightedConv(8, 16)
        self.c2 = WeightedConv(16, 16)
        self.head = nn.Linear(16, 2)

    def forward(self, x, edge_index):
        h = torch.relu(self.c1(x, edge_index))
        return self.head(self.c2(h, edge_index))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 30
    x = torch.randn(n, 8).to(device)
    edge_index = torch.randint(0, n, (2, 90)).to(device)
    y = torch.randint(0, 2, (n,)).to(device)
    model = GNN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(10):
        loss = nn.functional.cross_entropy(model(x, edge_index), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
