"""Node classification with a hand-written weighted message-passing layer.

Node features and the graph come from numpy arrays (as exported from networkx);
messages are aggregated with index_add_ over edge_index.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_graph(num_nodes=60, num_classes=3, feat_dim=8, seed=0):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, num_classes, size=num_nodes)
    centers = rng.normal(size=(num_classes, feat_dim))
    feats = (centers[labels] + 0.5 * rng.normal(size=(num_nodes, feat_dim))).astype(np.float32)
    src, dst = [], []
    for i in range(num_nodes):
        same = np.flatnonzero(labels == labels[i])
        for j in rng.choice(same, size=3):
            src.append(i)
            dst.append(int(j))
    edges = np.stack([np.array(src), np.array(dst)])
    # symmetric normalisation 1/sqrt(d_i d_j), computed once in numpy
    deg = np.bincount(edges[1], minlength=num_nodes).astype(np.float32) + 1.0
    weights = 1.0 / np.sqrt(deg[edges[0]] * deg[edges[1]])
    return feats, labels, edges, weights.astype(np.float32)


def confusion(y_true, y_pred, k):
    cm = np.zeros((k, k), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    return cm


class WeightedConv(nn.Module):
    def __init__(self, in_dim, out_dim, edge_weight):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)
        self.self_lin = nn.Linear(in_dim, out_dim, bias=False)
        self.edge_weight = torch.from_numpy(edge_weight)  # expect: DEV010

    def forward(self, x, edge_index):
        src, dst = edge_index
        msg = self.lin(x)[src] * self.edge_weight.unsqueeze(-1)
        out = torch.zeros(x.size(0), msg.size(1), device=x.device, dtype=msg.dtype)
        out.index_add_(0, dst, msg)
        return out + self.self_lin(x)


class GNN(nn.Module):
    def __init__(self, in_dim, hidden, n_cls, edge_weight):
        super().__init__()
        self.conv1 = WeightedConv(in_dim, hidden, edge_weight)
        self.conv2 = WeightedConv(hidden, n_cls, edge_weight)

    def forward(self, x, edge_index):
        h = F.relu(self.conv1(x, edge_index))
        h = F.dropout(h, 0.3, self.training)
        return self.conv2(h, edge_index)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    feats, labels, edges, weights = make_graph()
    n = feats.shape[0]
    x = torch.from_numpy(feats).to(device)
    y = torch.from_numpy(labels).long().to(device)
    edge_index = torch.from_numpy(edges).long().to(device)
    perm = torch.randperm(n)
    train_idx, test_idx = perm[: n // 2], perm[n // 2:]

    model = GNN(feats.shape[1], 16, 3, weights).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(50):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_idx], y[train_idx])
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    with torch.no_grad():
        pred = model(x, edge_index).argmax(dim=1)
    y_pred = pred[test_idx].numpy()  # expect: DEV011
    y_true = labels[test_idx.numpy()]
    print("test acc", (y_pred == y_true).mean())
    print(confusion(y_true, y_pred, 3))


if __name__ == "__main__":
    main()
