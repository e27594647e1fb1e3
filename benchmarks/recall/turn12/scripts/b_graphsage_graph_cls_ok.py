"""Mean-aggregation GraphSAGE for graph classification in plain PyTorch (correct look-alike).

Written from the same graph threads as the buggy GCN script ("indices should be
either on cpu or on the same device as the indexed tensor (cpu)",
pyg-team/pytorch_geometric#8817; "Fix neighbor loader device",
pyg-team/pytorch_geometric#3329): small graphs are batched by hand with a
`batch` vector, every accumulator is allocated next to the features
(`new_zeros`, `device=x.device`), and the graph labels travel with the batch.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


def random_graph(label, n_min=5, n_max=12):
    n = random.randint(n_min, n_max)
    if label == 1:  # ring
        src = list(range(n))
        dst = [(i + 1) % n for i in range(n)]
    else:  # star
        src, dst = [0] * (n - 1), list(range(1, n))
    edge_index = torch.tensor([src + dst, dst + src], dtype=torch.long)
    x = torch.randn(n, 8) * 0.1 + torch.bincount(edge_index[0], minlength=n).unsqueeze(1).float()
    return x, edge_index, label


def collate_graphs(graphs):
    xs, edges, batch, labels, offset = [], [], [], [], 0
    for gid, (x, edge_index, label) in enumerate(graphs):
        xs.append(x)
        edges.append(edge_index + offset)
        batch.append(torch.full((x.size(0),), gid, dtype=torch.long))
        labels.append(label)
        offset += x.size(0)
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(batch), torch.tensor(labels)


class SAGEConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin_self = nn.Linear(in_dim, out_dim)
        self.lin_neigh = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        summed = x.new_zeros(x.size(0), x.size(1)).index_add_(0, dst, x[src])
        count = torch.zeros(x.size(0), device=x.device).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        mean = summed / count.clamp(min=1).unsqueeze(-1)
        return self.lin_self(x) + self.lin_neigh(mean)


class GraphClassifier(nn.Module):
    def __init__(self, in_dim, hidden, num_classes):
        super().__init__()
        self.conv1, self.conv2 = SAGEConv(in_dim, hidden), SAGEConv(hidden, hidden)
        self.head = nn.Linear(hidden, num_classes)

    def forward(self, x, edge_index, batch, num_graphs):
        h = F.relu(self.conv1(x, edge_index))
        h = F.relu(self.conv2(h, edge_index))
        pooled = torch.zeros(num_graphs, h.size(1), device=h.device).index_add_(0, batch, h)
        sizes = torch.bincount(batch, minlength=num_graphs).clamp(min=1)
        return self.head(pooled / sizes.unsqueeze(-1))


def main():
    random.seed(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dataset = [random_graph(i % 2) for i in range(200)]
    train, test = dataset[:160], dataset[160:]

    model = GraphClassifier(8, 32, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(15):
        random.shuffle(train)
        model.train()
        for i in range(0, len(train), 16):
            chunk = train[i:i + 16]
            x, edge_index, batch, y = collate_graphs(chunk)
            x, edge_index, batch, y = x.to(device), edge_index.to(device), batch.to(device), y.to(device)
            loss = F.cross_entropy(model(x, edge_index, batch, len(chunk)), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    model.eval()
    x, edge_index, batch, y = collate_graphs(test)
    with torch.no_grad():
        logits = model(x.to(device), edge_index.to(device), batch.to(device), len(test))
    acc = (logits.argmax(dim=1).cpu() == y).float().mean().item()
    print(f"test accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
