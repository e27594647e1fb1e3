"""Two-layer GCN with degree normalisation computed from edge_index on the
same device, layers kept in an nn.ModuleList, full-batch training."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def normalised_edges(edge_index, num_nodes, dtype):
    loops = torch.arange(num_nodes, device=edge_index.device)
    edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
    row, col = edge_index
    deg = torch.zeros(num_nodes, dtype=dtype, device=edge_index.device)
    deg.scatter_add_(0, row, torch.ones(row.numel(), dtype=dtype, device=row.device))
    inv_sqrt = deg.pow(-0.5).masked_fill(deg == 0, 0.0)
    return edge_index, inv_sqrt[row] * inv_sqrt[col]


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index, weight):
        h = self.lin(x)
        row, col = edge_index
        return torch.zeros_like(h).index_add_(0, col, h[row] * weight[:, None])


class GCN(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = nn.ModuleList(GCNLayer(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, x, edge_index):
        edge_index, w = normalised_edges(edge_index, x.size(0), x.dtype)
        for i, layer in enumerate(self.layers):
            x = layer(x, edge_index, w)
            if i < len(self.layers) - 1:
                x = F.dropout(F.relu(x), 0.5, self.training)
        return x


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    n = 120
    src, dst = torch.randint(0, n, (500,), generator=g), torch.randint(0, n, (500,), generator=g)
    data = {
        "x": torch.randn(n, 12, generator=g),
        "edge_index": torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], 1),
        "y": torch.randint(0, 3, (n,), generator=g),
        "train_mask": torch.rand(n, generator=g) < 0.5,
    }
    data = {k: v.to(device) for k, v in data.items()}
    model = GCN([12, 32, 3]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(30):
        model.train()
        out = model(data["x"], data["edge_index"])
        loss = F.cross_entropy(out[data["train_mask"]], data["y"][data["train_mask"]])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(data["x"], data["edge_index"]).argmax(1)
    test = ~data["train_mask"]
    print(f"loss {loss.item():.3f} test acc {(pred[test] == data['y'][test]).float().mean().item():.3f}")


if __name__ == "__main__":
    main()
