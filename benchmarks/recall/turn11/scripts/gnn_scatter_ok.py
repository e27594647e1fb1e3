"""Look-alike of gnn_graph_batch_vector_unmoved.py: node classification with a GCN written in
plain PyTorch; the symmetric normalisation is computed with x.new_ones / device=edge_index.device,
and CPU index tensors of the train/test split pick rows of CUDA outputs (which PyTorch allows).

Thread: https://github.com/pyg-team/pytorch_geometric/issues/9479 (GCNConv fails when using a
CUDA device; every input of the layer has to share the device).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gcn_norm(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device)
    edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
    ones = torch.ones(edge_index.size(1), device=edge_index.device)
    deg = torch.zeros(num_nodes, device=edge_index.device).index_add_(0, edge_index[1], ones)
    inv_sqrt = deg.pow(-0.5)
    return edge_index, inv_sqrt[edge_index[0]] * inv_sqrt[edge_index[1]]


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index, weight):
        h = self.lin(x)
        msg = h[edge_index[0]] * weight[:, None]
        return h.new_zeros(h.shape).index_add_(0, edge_index[1], msg)


class GCN(nn.Module):
    def __init__(self, d_in=16, hidden=32, classes=3):
        super().__init__()
        self.l1, self.l2 = GCNLayer(d_in, hidden), GCNLayer(hidden, classes)

    def forward(self, x, edge_index):
        edge_index, w = gcn_norm(edge_index, x.size(0))
        h = F.dropout(F.relu(self.l1(x, edge_index, w)), 0.3, self.training)
        return self.l2(h, edge_index, w)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 300
    y = torch.randint(0, 3, (n,))
    x = torch.randn(n, 16) + F.one_hot(y, 16).float()
    src = torch.randint(0, n, (1500,))
    dst = torch.where(torch.rand(1500) < 0.7, src.roll(1), torch.randint(0, n, (1500,)))
    edge_index = torch.stack([src, dst])
    perm = torch.randperm(n)
    train_idx, test_idx = perm[:200], perm[200:]

    x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
    model = GCN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    for epoch in range(50):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_idx], y[train_idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(x, edge_index).argmax(1)
    acc = (pred[test_idx] == y[test_idx]).float().mean().item()
    print(f"loss {loss.item():.3f} test acc {acc:.3f}")


if __name__ == "__main__":
    main()
