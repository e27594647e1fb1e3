"""Weighted graph convolution written by hand: when a graph has no edge weights the layer falls
back to unit weights."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class WeightedConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)
        self.root = nn.Linear(d_in, d_out, bias=False)

    def forward(self, x, edge_index, edge_weight=None):
        src, dst = edge_index
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1))  # expect: DEV006
        msg = self.lin(x)[src] * edge_weight[:, None]
        out = torch.zeros(x.size(0), msg.size(1), device=x.device).index_add_(0, dst, msg)
        return out + self.root(x)


class Net(nn.Module):
    def __init__(self, d_in, hidden, classes):
        super().__init__()
        self.c1 = WeightedConv(d_in, hidden)
        self.c2 = WeightedConv(hidden, classes)

    def forward(self, x, edge_index, edge_weight=None):
        h = F.relu(self.c1(x, edge_index, edge_weight))
        return self.c2(F.dropout(h, 0.5, self.training), edge_index, edge_weight)


def random_graph(n=500, e=3000, d=16, classes=4):
    x = torch.randn(n, d)
    edge_index = torch.randint(0, n, (2, e))
    y = (x[:, :classes]).argmax(1)
    return x, edge_index, y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=100)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, edge_index, y = random_graph()
    x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
    train_mask = torch.rand(x.size(0), device=device) < 0.6
    model = Net(16, 32, 4).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(args.epochs):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    acc = (model(x, edge_index).argmax(1)[~train_mask] == y[~train_mask]).float().mean()
    print(f"test acc {acc.item():.3f}")


if __name__ == "__main__":
    main()
