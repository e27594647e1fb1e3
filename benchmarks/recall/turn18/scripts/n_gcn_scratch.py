# Two-layer GCN written without PyG, node classification on a random graph.
import torch
import torch.nn as nn
import torch.nn.functional as F


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes)  # expect: DEV006
    loops = loops.unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x, edge_index):
        num_nodes = x.size(0)
        edge_index = add_self_loops(edge_index, num_nodes)
        row, col = edge_index
        # symmetric normalisation D^-1/2 A D^-1/2
        deg = torch.zeros(num_nodes)  # expect: DEV006
        deg.scatter_add_(0, col, torch.ones_like(col, dtype=x.dtype))
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
        norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]

        h = self.lin(x)
        msg = h[row] * norm.unsqueeze(-1)
        out = torch.zeros_like(h).index_add_(0, col, msg)
        return out + self.bias


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, dropout=0.5):
        super().__init__()
        self.conv1 = GCNLayer(in_dim, hidden)
        self.conv2 = GCNLayer(hidden, n_classes)
        self.dropout = dropout

    def forward(self, x, edge_index):
        x = F.relu(self.conv1(x, edge_index))
        x = F.dropout(x, self.dropout, self.training)
        return self.conv2(x, edge_index)


def random_graph(num_nodes=100, num_edges=400, feat_dim=16, n_classes=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(0, num_nodes, (num_edges,), generator=g)
    dst = torch.randint(0, num_nodes, (num_edges,), generator=g)
    edge_index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    x = torch.randn(num_nodes, feat_dim, generator=g)
    y = torch.randint(0, n_classes, (num_nodes,), generator=g)
    train_mask = torch.rand(num_nodes, generator=g) < 0.6
    return x, edge_index, y, train_mask


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, edge_index, y, train_mask = random_graph()
    x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
    train_mask = train_mask.to(device)

    model = GCN(16, 32, 4).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(50):
        model.train()
        opt.zero_grad()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        loss.backward()
        opt.step()
        if epoch % 10 == 0:
            model.eval()
            with torch.no_grad():
                pred = model(x, edge_index).argmax(1)
                acc = (pred[~train_mask] == y[~train_mask]).float().mean().item()
            print(f"epoch {epoch:02d} loss {loss.item():.3f} val acc {acc:.3f}")


if __name__ == "__main__":
    main()
