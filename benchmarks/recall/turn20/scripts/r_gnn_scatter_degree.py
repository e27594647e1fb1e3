# Minimal GCN written by hand (no PyG install on the cluster), PyG-style Data object.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Data:
    def __init__(self, x, edge_index, y):
        self.x, self.edge_index, self.y = x, edge_index, y

    @property
    def num_nodes(self):
        return self.x.size(0)

    def to(self, device):
        return Data(self.x.to(device), self.edge_index.to(device), self.y.to(device))


class GCNConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n, device=x.device)
        row = torch.cat([edge_index[0], loops])
        col = torch.cat([edge_index[1], loops])
        # symmetric normalisation D^-1/2 A D^-1/2
        deg = torch.zeros(n).index_add_(0, row, torch.ones(row.numel()))  # expect: DEV006
        dinv = deg.pow(-0.5)
        norm = dinv[row] * dinv[col]
        h = self.lin(x)
        msg = h[col] * norm.unsqueeze(-1)
        out = torch.zeros_like(h).index_add_(0, row, msg)
        return out


class GCN(nn.Module):
    def __init__(self, in_dim, hid, n_cls):
        super().__init__()
        self.conv1 = GCNConv(in_dim, hid)
        self.conv2 = GCNConv(hid, n_cls)

    def forward(self, data):
        h = F.relu(self.conv1(data.x, data.edge_index))
        h = F.dropout(h, 0.5, self.training)
        return self.conv2(h, data.edge_index)


def random_graph(n=40, e=120, feats=8, classes=3):
    edge_index = torch.randint(0, n, (2, e))
    edge_index = torch.cat([edge_index, edge_index.flip(0)], dim=1)
    return Data(torch.randn(n, feats), edge_index, torch.randint(0, classes, (n,)))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    data = random_graph().to(device)
    model = GCN(8, 16, 3).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(args.epochs):
        model.train()
        opt.zero_grad()
        out = model(data)
        loss = F.cross_entropy(out, data.y)
        loss.backward()
        opt.step()
    print(f"final loss {loss.item():.4f}")
