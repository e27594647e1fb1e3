"""Message passing in plain PyTorch done right: aggregation buffers made with new_zeros / device=,
PyG-style batch objects moved with .to(device)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_geometric.datasets import TUDataset
from torch_geometric.loader import DataLoader


class EdgeConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU())

    def forward(self, x, edge_index):
        src, dst = edge_index
        m = self.msg(torch.cat([x[dst], x[src] - x[dst]], dim=-1))
        out = x.new_zeros(x.size(0), m.size(1))
        out.index_reduce_(0, dst, m, reduce="amax", include_self=False)
        deg = torch.zeros(x.size(0), device=x.device).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        return out + x * (deg == 0).unsqueeze(-1)


class Net(nn.Module):
    def __init__(self, in_dim, dim=64, n_classes=2):
        super().__init__()
        self.inp = nn.Linear(in_dim, dim)
        self.convs = nn.ModuleList([EdgeConv(dim) for _ in range(2)])
        self.out = nn.Linear(dim, n_classes)

    def forward(self, data):
        h = self.inp(data.x)
        for conv in self.convs:
            h = conv(h, data.edge_index)
        pooled = torch.zeros(data.num_graphs, h.size(1), device=h.device).index_add_(0, data.batch, h)
        return self.out(pooled)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = TUDataset("data/TU", name="MUTAG")
    loader = DataLoader(ds, batch_size=32, shuffle=True)
    model = Net(ds.num_features).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(5):
        for data in loader:
            data = data.to(device)
            loss = F.cross_entropy(model(data), data.y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())
