"""Graph classification with a hand-written collate (edge offsets, batch vector) and mean pooling.

Correct look-alike written from the PyG batching threads (HydraGNN "Revert 'Move data to the
device once'" with `global_mean_pool(x, batch)` failing, "Fix neighbor loader device", the
`subgraph` "indices should be either on cpu or on the same device" report): every tensor of the
collated batch, the batch vector and labels included, goes to the device inside the loop, and the
pooling buffers are allocated from the node features.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def random_graph(label, g):
    n = int(torch.randint(5, 12, (1,), generator=g))
    if label == 1:
        src = torch.arange(n)
        edges = torch.stack([src, (src + 1) % n])
    else:
        edges = torch.randint(0, n, (2, n + 2), generator=g)
    edges = torch.cat([edges, edges.flip(0)], dim=1)
    x = torch.randn(n, 6, generator=g) + label * 0.3
    return {"x": x, "edge_index": edges, "y": torch.tensor(label)}


def collate_graphs(graphs):
    xs, edges, batch, offset = [], [], [], 0
    for i, gr in enumerate(graphs):
        n = gr["x"].size(0)
        xs.append(gr["x"])
        edges.append(gr["edge_index"] + offset)
        batch.append(torch.full((n,), i, dtype=torch.long))
        offset += n
    return {"x": torch.cat(xs), "edge_index": torch.cat(edges, dim=1),
            "batch": torch.cat(batch), "y": torch.stack([gr["y"] for gr in graphs])}


class GraphSAGEMean(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.self_lin, self.neigh_lin = nn.Linear(cin, cout), nn.Linear(cin, cout)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.zeros(x.size(0), device=x.device).index_add_(
            0, dst, torch.ones(dst.numel(), device=x.device))
        return self.self_lin(x) + self.neigh_lin(agg / deg.clamp(min=1).unsqueeze(-1))


class GraphClassifier(nn.Module):
    def __init__(self, cin=6, hidden=32, n_classes=2):
        super().__init__()
        self.convs = nn.ModuleList([GraphSAGEMean(cin, hidden), GraphSAGEMean(hidden, hidden)])
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x, edge_index, batch, num_graphs):
        for conv in self.convs:
            x = F.relu(conv(x, edge_index))
        pooled = x.new_zeros(num_graphs, x.size(1)).index_add_(0, batch, x)
        counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1).unsqueeze(-1)
        return self.head(pooled / counts)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    graphs = [random_graph(i % 2, g) for i in range(200)]
    loader = DataLoader(graphs, batch_size=16, shuffle=True, collate_fn=collate_graphs)
    model = GraphClassifier().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

    for epoch in range(10):
        correct = total = 0
        for batch in loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            num_graphs = batch["y"].numel()
            logits = model(batch["x"], batch["edge_index"], batch["batch"], num_graphs)
            loss = F.cross_entropy(logits, batch["y"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(-1) == batch["y"]).sum().item()
            total += num_graphs
        if epoch % 3 == 0:
            print(f"epoch {epoch}: loss {loss.item():.3f} train acc {correct / total:.3f}")


if __name__ == "__main__":
    main()
