"""Hand-written GCN layer with symmetric degree normalisation, trained full-batch on a random
stochastic-block graph."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        n = x.size(0)
        src, dst = edge_index
        deg = torch.zeros(n).scatter_add_(0, dst, torch.ones(dst.numel()))  # expect: DEV006
        norm = deg.clamp(min=1).pow(-0.5)
        msg = self.lin(x)[src] * (norm[src] * norm[dst]).unsqueeze(-1)
        return torch.zeros_like(self.lin(x)).index_add_(0, dst, msg)


class GCN(nn.Module):
    def __init__(self, d_in, hidden, n_cls):
        super().__init__()
        self.l1 = GCNLayer(d_in, hidden)
        self.l2 = GCNLayer(hidden, n_cls)

    def forward(self, x, ei):
        return self.l2(F.relu(self.l1(x, ei)), ei)


def sbm(n=200, k=4, p_in=0.1, p_out=0.01):
    y = torch.arange(n) % k
    same = y[:, None] == y[None, :]
    prob = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = torch.rand(n, n) < prob
    return adj.nonzero().t(), y


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    edge_index, y = sbm()
    x = F.one_hot(y, 4).float() + 0.5 * torch.randn(200, 4)
    x, y, edge_index = x.to(device), y.to(device), edge_index.to(device)
    model = GCN(4, 16, 4).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    for epoch in range(50):
        loss = F.cross_entropy(model(x, edge_index), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
