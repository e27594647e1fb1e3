# GraphSAGE-style mean aggregation with scatter, mini "PyG" Data objects
import torch
import torch.nn as nn
import torch.nn.functional as F


class Graph:
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def to(self, device):
        return Graph(**{k: v.to(device) if torch.is_tensor(v) else v for k, v in self.__dict__.items()})


def scatter_mean(src, index, dim_size):
    out = src.new_zeros(dim_size, src.size(-1))
    out.index_add_(0, index, src)
    cnt = torch.zeros(dim_size, device=src.device).index_add_(0, index, torch.ones_like(index, dtype=src.dtype))
    return out / cnt.clamp(min=1).unsqueeze(-1)


class SAGEConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin_self = nn.Linear(d_in, d_out)
        self.lin_nei = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = scatter_mean(x[src], dst, x.size(0))
        return self.lin_self(x) + self.lin_nei(agg)


class SAGE(nn.Module):
    def __init__(self, d_in, hid, n_cls, num_layers=2):
        super().__init__()
        dims = [d_in] + [hid] * (num_layers - 1) + [n_cls]
        self.convs = nn.ModuleList(SAGEConv(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, x, edge_index):
        for i, conv in enumerate(self.convs):
            x = conv(x, edge_index)
            if i < len(self.convs) - 1:
                x = F.relu(x)
        return x


def build_graph(n=50, m=150):
    ei = torch.randint(0, n, (2, m))
    y = torch.randint(0, 3, (n,))
    perm = torch.randperm(n)
    return Graph(x=torch.randn(n, 6), edge_index=ei, y=y, train_idx=perm[:30], test_idx=perm[30:])


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
data = build_graph().to(device)
train_idx_cpu = data.train_idx.cpu()
counts = torch.bincount(data.y[data.train_idx], minlength=3).float() + 1
model = SAGE(6, 32, 3).to(device)
criterion = nn.CrossEntropyLoss(weight=(counts.sum() / counts).to(device))
opt = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(30):
    opt.zero_grad()
    out = model(data.x, data.edge_index)
    loss = criterion(out[train_idx_cpu], data.y[train_idx_cpu])
    loss.backward()
    opt.step()

with torch.no_grad():
    pred = model(data.x, data.edge_index).argmax(1)
acc = (pred[data.test_idx] == data.y[data.test_idx]).float().mean().item()
print(f"loss {loss.item():.3f} test acc {acc:.3f}")
