"""Graph classification of small random molecules with a two-layer message-passing network in
plain PyTorch; the collate function packs a batch of graphs into one disconnected graph plus a
batch vector that maps every node to its graph for mean pooling.

Thread: https://github.com/pyg-team/pytorch_geometric/issues/8855 (CUDA:1 unexpected behavior:
"the batch vectors are also expected to be placed on the GPU").
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def random_graph():
    n = random.randint(5, 12)
    x = torch.randn(n, 8)
    edge_index = torch.randint(0, n, (2, 2 * n))
    return x, edge_index, int(x[:, 0].mean() > 0)


def collate(graphs):
    xs, edges, batch, ys, offset = [], [], [], [], 0
    for i, (x, edge_index, y) in enumerate(graphs):
        xs.append(x)
        edges.append(edge_index + offset)
        batch.append(torch.full((x.size(0),), i))
        ys.append(y)
        offset += x.size(0)
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch), torch.tensor(ys)


class MPNN(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.lin1, self.lin2, self.out = nn.Linear(8, d), nn.Linear(d, d), nn.Linear(d, 2)

    @staticmethod
    def propagate(h, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(h).index_add_(0, dst, h[src])
        deg = torch.bincount(dst, minlength=h.size(0)).clamp_min(1)
        return agg / deg[:, None]

    def forward(self, x, edge_index, batch):
        h = F.relu(self.lin1(x))
        h = F.relu(self.lin2(h + self.propagate(h, edge_index)))
        num_graphs = int(batch.max()) + 1
        pooled = torch.zeros(num_graphs, h.size(1), device=h.device).index_add_(0, batch, h)
        counts = torch.bincount(batch, minlength=num_graphs).clamp_min(1)
        return self.out(pooled / counts[:, None])


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MPNN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    graphs = [random_graph() for _ in range(300)]
    loader = DataLoader(graphs, batch_size=32, shuffle=True, collate_fn=collate)
    for epoch in range(3):
        correct = 0
        for x, edge_index, batch_vec, y in loader:
            x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
            logits = model(x, edge_index, batch_vec)  # expect: DEV002
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == y).sum().item()
        print(f"epoch {epoch}: acc {correct / len(graphs):.2f}")


if __name__ == "__main__":
    main()
