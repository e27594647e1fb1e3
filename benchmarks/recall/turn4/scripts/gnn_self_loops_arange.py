"""A GCN layer written by hand: self-loops, symmetric normalisation, index_add aggregation."""
import torch
import torch.nn as nn


class HandGCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out, bias=False)

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n)  # expect: DEV006
        edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
        src, dst = edge_index
        deg = torch.zeros(n, device=x.device).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        norm = deg[src].rsqrt() * deg[dst].rsqrt()
        h = self.lin(x)
        return torch.zeros_like(h).index_add_(0, dst, h[src] * norm.unsqueeze(-1))


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = HandGCNLayer(16, 32)
        self.l2 = HandGCNLayer(32, 3)

    def forward(self, x, edge_index):
        return self.l2(torch.relu(self.l1(x, edge_index)), edge_index)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(50, 16).to(device)
    edge_index = torch.randint(0, 50, (2, 200)).to(device)
    y = torch.randint(0, 3, (50,)).to(device)
    model = GCN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(5):
        loss = nn.functional.cross_entropy(model(x, edge_index), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
