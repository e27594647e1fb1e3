"""Hand-written GCN (no PyG) for node classification on a random graph:
symmetric degree normalisation, scatter-add message passing, k layers."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device)
    return torch.cat([edge_index, torch.stack([loops, loops])], dim=1)


def gcn_norm(edge_index, num_nodes, dtype):
    row, col = edge_index
    deg = torch.zeros(num_nodes, dtype=dtype)  # expect: DEV006
    deg.scatter_add_(0, row, torch.ones_like(row, dtype=dtype))
    deg_inv_sqrt = deg.pow(-0.5)
    deg_inv_sqrt[torch.isinf(deg_inv_sqrt)] = 0
    return deg_inv_sqrt[row] * deg_inv_sqrt[col]


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x, edge_index, norm):
        h = self.lin(x)
        row, col = edge_index
        messages = h[row] * norm.unsqueeze(-1)
        out = torch.zeros_like(h).index_add_(0, col, messages)
        return out + self.bias


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, num_layers=3, dropout=0.5):
        super().__init__()
        dims = [in_dim] + [hidden] * (num_layers - 1) + [n_classes]
        self.layers = [GCNLayer(dims[i], dims[i + 1]) for i in range(num_layers)]  # expect: DEV009
        self.dropout = dropout

    def forward(self, x, edge_index):
        edge_index = add_self_loops(edge_index, x.size(0))
        norm = gcn_norm(edge_index, x.size(0), x.dtype)
        for i, layer in enumerate(self.layers):
            x = layer(x, edge_index, norm)
            if i < len(self.layers) - 1:
                x = F.dropout(F.relu(x), self.dropout, self.training)
        return x

    def parameters_for_optim(self):
        return [p for layer in self.layers for p in layer.parameters()]


def random_graph(num_nodes=100, num_edges=400, feat_dim=16, n_classes=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(0, num_nodes, (num_edges,), generator=g)
    dst = torch.randint(0, num_nodes, (num_edges,), generator=g)
    edge_index = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)
    x = torch.randn(num_nodes, feat_dim, generator=g)
    y = torch.randint(0, n_classes, (num_nodes,), generator=g)
    train_mask = torch.rand(num_nodes, generator=g) < 0.6
    return x, edge_index, y, train_mask


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, edge_index, y, train_mask = random_graph()
    x, edge_index, y, train_mask = x.to(device), edge_index.to(device), y.to(device), train_mask.to(device)

    model = GCN(16, 32, 4).to(device)
    optimizer = torch.optim.Adam(model.parameters_for_optim(), lr=0.01, weight_decay=5e-4)
    for epoch in range(20):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        pred = model(x, edge_index).argmax(1)
        acc = (pred[~train_mask] == y[~train_mask]).float().mean().item()
    print(f"loss {loss.item():.3f} test acc {acc:.3f}")


if __name__ == "__main__":
    main()
