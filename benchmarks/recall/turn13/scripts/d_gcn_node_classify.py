"""Two-layer GCN written with index_add_ (no PyG) for node classification on a planted-partition graph.

From GNN threads where the symmetric normalisation is built in `forward` with a fresh
`torch.zeros(num_nodes)` ("Expected all tensors to be on the same device ... cuda:0 and cpu" from
`coalesce`/`gcn_norm`-style helpers, PyG #3390, gnnad #6) and where the node labels stay on the CPU
while the features and edges were moved ("indices should be either on cpu or on the same device
as the indexed tensor").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def planted_partition(n_per_class=40, n_classes=3, p_in=0.15, p_out=0.01, feat_dim=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    n = n_per_class * n_classes
    y = torch.arange(n_classes).repeat_interleave(n_per_class)
    same = y[:, None] == y[None, :]
    prob = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = (torch.rand(n, n, generator=g) < prob).triu(1)
    adj = adj | adj.T
    edge_index = adj.nonzero().T.contiguous()
    centers = torch.randn(n_classes, feat_dim, generator=g)
    x = centers[y] + 0.8 * torch.randn(n, feat_dim, generator=g)
    return x, edge_index, y


class GCNLayer(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout)

    def forward(self, x, edge_index):
        num_nodes = x.size(0)
        loops = torch.arange(num_nodes, device=x.device)
        row = torch.cat([edge_index[0], loops])
        col = torch.cat([edge_index[1], loops])
        deg = torch.zeros(num_nodes)  # expect: DEV006
        deg.index_add_(0, col, torch.ones(col.numel(), device=x.device))
        norm = deg[row].rsqrt() * deg[col].rsqrt()
        h = self.lin(x)
        out = torch.zeros_like(h)
        out.index_add_(0, col, h[row] * norm.unsqueeze(-1))
        return out


class GCN(nn.Module):
    def __init__(self, cin, hidden, n_classes):
        super().__init__()
        self.l1, self.l2 = GCNLayer(cin, hidden), GCNLayer(hidden, n_classes)

    def forward(self, x, edge_index):
        h = F.dropout(F.relu(self.l1(x, edge_index)), p=0.5, training=self.training)
        return self.l2(h, edge_index)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    x, edge_index, y = planted_partition()
    perm = torch.randperm(x.size(0))
    train_mask = torch.zeros(x.size(0), dtype=torch.bool)
    train_mask[perm[:60]] = True
    test_mask = ~train_mask

    model = GCN(x.size(1), 32, 3).to(device)
    x, edge_index = x.to(device), edge_index.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)

    for epoch in range(100):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])  # expect: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    model.eval()
    with torch.no_grad():
        pred = model(x, edge_index).argmax(dim=1)
    acc = (pred[test_mask].cpu() == y[test_mask]).float().mean().item()
    print(f"final loss {loss.item():.4f}, test accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
