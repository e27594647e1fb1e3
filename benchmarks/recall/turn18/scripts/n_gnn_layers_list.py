"""Graph classification with a stack of GIN-style layers and a PyG-like batch."""
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


@dataclass
class GraphBatch:
    x: torch.Tensor
    edge_index: torch.Tensor
    batch: torch.Tensor
    y: torch.Tensor
    num_graphs: int

    def to(self, device):
        return GraphBatch(self.x.to(device), self.edge_index.to(device),
                          self.batch.to(device), self.y.to(device), self.num_graphs)


class RandomGraphs(Dataset):
    def __init__(self, n=64, feat_dim=8, seed=0):
        random.seed(seed)
        self.graphs = []
        for _ in range(n):
            num_nodes = random.randint(5, 12)
            num_edges = num_nodes * 2
            ei = torch.randint(0, num_nodes, (2, num_edges))
            x = torch.randn(num_nodes, feat_dim)
            y = int(num_nodes > 8)
            self.graphs.append((x, ei, y))

    def __len__(self):
        return len(self.graphs)

    def __getitem__(self, i):
        return self.graphs[i]


def collate_graphs(samples):
    xs, eis, bs, ys = [], [], [], []
    offset = 0
    for gid, (x, ei, y) in enumerate(samples):
        xs.append(x)
        eis.append(ei + offset)
        bs.append(torch.full((x.size(0),), gid, dtype=torch.long))
        ys.append(y)
        offset += x.size(0)
    return GraphBatch(torch.cat(xs), torch.cat(eis, dim=1), torch.cat(bs),
                      torch.tensor(ys), len(samples))


class GINLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        return self.mlp((1 + self.eps) * x + agg)


def global_mean_pool(x, batch, num_graphs):
    out = torch.zeros(num_graphs, x.size(1), device=x.device).index_add_(0, batch, x)
    counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1).unsqueeze(1)
    return out / counts


class GIN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, num_layers=3):
        super().__init__()
        self.embed = nn.Linear(in_dim, hidden)
        self.convs = [GINLayer(hidden) for _ in range(num_layers)]  # expect: DEV009
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, data):
        h = self.embed(data.x)
        for conv in self.convs:
            h = F.relu(conv(h, data.edge_index))
        return self.head(global_mean_pool(h, data.batch, data.num_graphs))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(RandomGraphs(), batch_size=8, shuffle=True, collate_fn=collate_graphs)
    model = GIN(8, 32, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        total = 0.0
        for data in loader:
            data = data.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(data), data.y)
            loss.backward()
            optimizer.step()
            total += loss.item() * data.num_graphs
        print(f"epoch {epoch} loss {total / len(loader.dataset):.4f}")


if __name__ == "__main__":
    main()
