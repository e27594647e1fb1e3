"""Graph classification over mini-batches of small graphs packed by hand into one big graph;
node-to-graph assignment is rebuilt from the graph sizes for mean pooling."""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_graph(rng):
    n = rng.randint(5, 15)
    edges = [(i, (i + 1) % n) for i in range(n)] + [(rng.randrange(n), rng.randrange(n)) for _ in range(n)]
    label = int(n > 10)
    return torch.randn(n, 8), torch.tensor(edges).t(), label


def pack(graphs):
    xs, eis, sizes, ys, offset = [], [], [], [], 0
    for x, ei, y in graphs:
        xs.append(x)
        eis.append(ei + offset)
        sizes.append(x.size(0))
        ys.append(y)
        offset += x.size(0)
    return torch.cat(xs), torch.cat(eis, 1), sizes, torch.tensor(ys)


class GIN(nn.Module):
    def __init__(self, d=8, hidden=64):
        super().__init__()
        self.mlp1 = nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.mlp2 = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.cls = nn.Linear(hidden, 2)

    def conv(self, mlp, x, edge_index):
        agg = torch.zeros_like(x).index_add_(0, edge_index[1], x[edge_index[0]])
        return mlp(x + agg)

    def forward(self, x, edge_index, batch, num_graphs):
        h = F.relu(self.conv(self.mlp1, x, edge_index))
        h = self.conv(self.mlp2, h, edge_index)
        pooled = torch.zeros(num_graphs, h.size(1), device=h.device).index_add_(0, batch, h)
        counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1)
        return self.cls(pooled / counts[:, None])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(0)
    data = [make_graph(rng) for _ in range(1000)]
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = GIN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        rng.shuffle(data)
        for i in range(0, len(data), 32):
            x, edge_index, sizes, y = pack(data[i:i + 32])
            batch = torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))  # expect: DEV006
            x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
            loss = F.cross_entropy(model(x, edge_index, batch, len(sizes)), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
