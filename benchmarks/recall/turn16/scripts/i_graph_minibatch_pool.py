"""Graph classification with mini-batched graphs (block-diagonal batching,
PyG style) and mean-pool readout, without torch_geometric.

Task: tell cycles from paths / stars.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def cycle(n):
    src = list(range(n))
    dst = [(i + 1) % n for i in range(n)]
    return src + dst, dst + src


def path(n):
    src = list(range(n - 1))
    dst = [i + 1 for i in range(n - 1)]
    return src + dst, dst + src


def star(n):
    src = [0] * (n - 1)
    dst = list(range(1, n))
    return src + dst, dst + src


class ToyGraphs(Dataset):
    def __init__(self, count=300, seed=0):
        rnd = random.Random(seed)
        self.items = []
        for _ in range(count):
            kind = rnd.randrange(3)
            n = rnd.randint(5, 12)
            src, dst = (cycle, path, star)[kind](n)
            edge_index = torch.tensor([src, dst], dtype=torch.long)
            deg = torch.bincount(edge_index[0], minlength=n).float()
            x = torch.stack([deg, torch.ones(n), deg / n], dim=1)
            self.items.append((x, edge_index, kind))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate_graphs(samples):
    xs, eis, batch, ys = [], [], [], []
    offset = 0
    for gid, (x, ei, y) in enumerate(samples):
        xs.append(x)
        eis.append(ei + offset)
        batch.append(torch.full((x.size(0),), gid, dtype=torch.long))
        ys.append(y)
        offset += x.size(0)
    return (torch.cat(xs), torch.cat(eis, dim=1), torch.cat(batch),
            torch.tensor(ys), len(samples))


class GraphSAGE(nn.Module):
    def __init__(self, in_dim, hidden, num_classes, layers=3):
        super().__init__()
        dims = [in_dim] + [hidden] * layers
        self.self_lins = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.neigh_lins = nn.ModuleList(nn.Linear(a, b, bias=False) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(hidden, num_classes)

    def forward(self, x, edge_index, batch, num_graphs):
        src, dst = edge_index
        for lin_self, lin_neigh in zip(self.self_lins, self.neigh_lins):
            agg = torch.zeros_like(x).index_add_(0, dst, x[src])
            cnt = torch.zeros(x.size(0), device=x.device).index_add_(
                0, dst, torch.ones(dst.numel(), device=x.device)).clamp(min=1)
            x = F.relu(lin_self(x) + lin_neigh(agg / cnt.unsqueeze(-1)))
        # mean readout per graph
        assign = F.one_hot(batch, num_graphs).to(x.dtype)
        pooled = assign.t() @ x / assign.sum(0).unsqueeze(-1)
        return self.head(pooled)


def train_epoch(model, loader, optimizer, device):
    model.train()
    total, n = 0.0, 0
    for x, edge_index, batch, y, num_graphs in loader:
        model.to(device)  # expect: DEV007
        x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
        logits = model(x, edge_index, batch, num_graphs)  # expect: DEV002
        loss = F.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * num_graphs
        n += num_graphs
    return total / n


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct, n = 0, 0
    for x, edge_index, batch, y, num_graphs in loader:
        x, edge_index, batch, y = x.to(device), edge_index.to(device), batch.to(device), y.to(device)
        pred = model(x, edge_index, batch, num_graphs).argmax(-1)
        correct += (pred == y).sum().item()
        n += num_graphs
    return correct / n


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = ToyGraphs()
    train_ds = torch.utils.data.Subset(ds, range(0, 240))
    test_ds = torch.utils.data.Subset(ds, range(240, 300))
    train_loader = DataLoader(train_ds, batch_size=16, shuffle=True, collate_fn=collate_graphs)
    test_loader = DataLoader(test_ds, batch_size=32, collate_fn=collate_graphs)

    model = GraphSAGE(3, 32, 3)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(1, 6):
        loss = train_epoch(model, train_loader, optimizer, device)
        acc = evaluate(model, test_loader, device)
        print(f"epoch {epoch}  loss {loss:.4f}  test acc {acc:.3f}")


if __name__ == "__main__":
    main()
