"""Message passing done right: unit edge weights from x.new_ones, degrees with new_zeros, a
batch vector moved with the rest of the batch, a CPU 0-dim scale (legal)."""
import torch
import torch.nn as nn


class WeightedConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)
        self.eps = torch.tensor(1e-6)

    def forward(self, x, edge_index, edge_weight=None):
        src, dst = edge_index
        if edge_weight is None:
            edge_weight = x.new_ones(edge_index.size(1))
        deg = x.new_zeros(x.size(0)).index_add_(0, dst, edge_weight)
        msg = self.lin(x)[src] * (edge_weight / (deg[dst] + self.eps)).unsqueeze(-1)
        return torch.zeros(x.size(0), self.lin.out_features, device=x.device).index_add_(0, dst, msg)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    conv = WeightedConv(6, 4).to(device)
    head = nn.Linear(4, 2).to(device)
    opt = torch.optim.Adam(list(conv.parameters()) + list(head.parameters()), lr=1e-2)
    for step in range(10):
        x = torch.randn(20, 6)
        ei = torch.randint(0, 20, (2, 50))
        batch = torch.arange(20) // 10
        y = torch.randint(0, 2, (2,))
        x, ei, batch, y = x.to(device), ei.to(device), batch.to(device), y.to(device)
        h = conv(x, ei)
        pooled = torch.zeros(2, 4, device=device).index_add_(0, batch, h)
        loss = nn.functional.cross_entropy(head(pooled), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
