"""Two-layer GCN for node classification, message passing with index_add_.

Written from graph threads such as "in utils.subgraph.py RuntimeError: indices
should be either on cpu or on the same device as the indexed tensor"
(pyg-team/pytorch_geometric#8817), "Bug in scatter_add_" (pytorch/pytorch#13717,
a torch.ones(...) accumulator on the CPU with a CUDA source) and the OGB question
"Expected object of device type cuda but got device type cpu"
(snap-stanford/ogb#68): the aggregation buffer is built on the CPU inside
forward, and the node labels are never moved.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_sbm_graph(num_nodes=120, num_classes=3, p_in=0.12, p_out=0.01, feat_dim=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, num_classes, (num_nodes,), generator=g)
    same = y.unsqueeze(0) == y.unsqueeze(1)
    prob = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = torch.rand(num_nodes, num_nodes, generator=g) < prob
    adj = torch.triu(adj, diagonal=1)
    src, dst = adj.nonzero(as_tuple=True)
    edge_index = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)
    centers = torch.randn(num_classes, feat_dim, generator=g)
    x = centers[y] + 0.8 * torch.randn(num_nodes, feat_dim, generator=g)
    perm = torch.randperm(num_nodes, generator=g)
    train_mask = torch.zeros(num_nodes, dtype=torch.bool)
    train_mask[perm[: num_nodes // 2]] = True
    return x, edge_index, y, train_mask, ~train_mask


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        num_nodes = x.size(0)
        loops = torch.arange(num_nodes, device=x.device)
        src = torch.cat([edge_index[0], loops])
        dst = torch.cat([edge_index[1], loops])
        deg = torch.bincount(dst, minlength=num_nodes).float()
        norm = deg[src].rsqrt() * deg[dst].rsqrt()
        h = self.lin(x)
        messages = h[src] * norm.unsqueeze(-1)
        out = torch.zeros(num_nodes, h.size(1))  # expect: DEV006
        out.index_add_(0, dst, messages)
        return out


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, num_classes, dropout=0.5):
        super().__init__()
        self.conv1 = GCNLayer(in_dim, hidden)
        self.conv2 = GCNLayer(hidden, num_classes)
        self.dropout = dropout

    def forward(self, x, edge_index):
        x = F.relu(self.conv1(x, edge_index))
        x = F.dropout(x, p=self.dropout, training=self.training)
        return self.conv2(x, edge_index)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, edge_index, y, train_mask, val_mask = make_sbm_graph()
    x, edge_index = x.to(device), edge_index.to(device)

    model = GCN(x.size(1), 32, int(y.max()) + 1).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(1, 101):
        model.train()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])  # expect: DEV004
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if epoch % 20 == 0:
            model.eval()
            with torch.no_grad():
                pred = model(x, edge_index).argmax(dim=1)
            acc = (pred[val_mask].cpu() == y[val_mask]).float().mean().item()
            print(f"epoch {epoch:3d} loss {loss.item():.4f} val acc {acc:.3f}")


if __name__ == "__main__":
    main()
