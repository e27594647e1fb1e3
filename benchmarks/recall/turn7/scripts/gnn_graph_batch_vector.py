"""Graph classification with a hand-made mini-batching collate: node features are stacked, edge
indices offset, and a batch vector tells which graph each node belongs to."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def make_graph(seed):
    g = torch.Generator().manual_seed(seed)
    n = int(torch.randint(4, 9, (1,), generator=g))
    x = torch.randn(n, 5, generator=g)
    e = torch.randint(0, n, (2, 2 * n), generator=g)
    return x, e, int(x[:, 0].sum() > 0)


def collate(graphs):
    xs, es, batch, ys, off = [], [], [], [], 0
    for i, (x, e, y) in enumerate(graphs):
        xs.append(x)
        es.append(e + off)
        batch.append(torch.full((x.size(0),), i, dtype=torch.long))
        ys.append(y)
        off += x.size(0)
    return torch.cat(xs), torch.cat(es, 1), torch.cat(batch), torch.tensor(ys)


class GraphNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(5, 16)
        self.lin2 = nn.Linear(16, 16)
        self.out = nn.Linear(16, 2)

    def forward(self, x, edge_index, batch, n_graphs):
        h = torch.relu(self.lin1(x))
        agg = torch.zeros_like(h).index_add_(0, edge_index[1], h[edge_index[0]])
        h = torch.relu(self.lin2(h + agg))
        pooled = torch.zeros(n_graphs, h.size(1), device=h.device).index_add_(0, batch, h)
        return self.out(pooled)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader([make_graph(s) for s in range(64)], batch_size=8, shuffle=True, collate_fn=collate)
    model = GraphNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        for x, edge_index, batch, y in loader:
            x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
            logits = model(x, edge_index, batch, y.numel())  # expect: DEV002
            loss = nn.functional.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
