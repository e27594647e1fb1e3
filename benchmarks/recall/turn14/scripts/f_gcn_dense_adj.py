"""Two-layer GCN (Kipf & Welling) with a dense normalized adjacency.

The graph is small enough that D^-1/2 (A + I) D^-1/2 fits as a dense matrix,
so the model builds it from edge_index on the fly.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_two_community_graph(n_per_block=40, p_in=0.15, p_out=0.01, n_feats=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    n = 2 * n_per_block
    labels = torch.cat([torch.zeros(n_per_block), torch.ones(n_per_block)]).long()
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    upper = torch.triu(torch.rand(n, n, generator=g) < probs, diagonal=1)
    src, dst = upper.nonzero(as_tuple=True)
    edge_index = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)
    centers = torch.randn(2, n_feats, generator=g)
    x = centers[labels] + 1.5 * torch.randn(n, n_feats, generator=g)
    perm = torch.randperm(n, generator=g)
    train_mask = torch.zeros(n, dtype=torch.bool)
    train_mask[perm[: n // 5]] = True
    return x, edge_index, labels, train_mask


class DenseGCN(nn.Module):
    def __init__(self, in_dim, hidden_dim, n_classes, dropout=0.5):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hidden_dim)
        self.lin2 = nn.Linear(hidden_dim, n_classes)
        self.dropout = dropout

    @staticmethod
    def normalized_adjacency(edge_index, num_nodes):
        adj = torch.zeros(num_nodes, num_nodes)  # expect: DEV006
        adj[edge_index[0], edge_index[1]] = 1.0
        adj = adj + torch.eye(num_nodes, device=adj.device)
        deg_inv_sqrt = adj.sum(dim=1).pow(-0.5)
        return deg_inv_sqrt.unsqueeze(1) * adj * deg_inv_sqrt.unsqueeze(0)

    def forward(self, x, edge_index):
        a_hat = self.normalized_adjacency(edge_index, x.size(0))
        x = F.dropout(x, self.dropout, self.training)
        x = F.relu(a_hat @ self.lin1(x))
        x = F.dropout(x, self.dropout, self.training)
        return a_hat @ self.lin2(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, edge_index, y, train_mask = make_two_community_graph()
    x, edge_index, y, train_mask = x.to(device), edge_index.to(device), y.to(device), train_mask.to(device)

    model = DenseGCN(x.size(1), 32, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)

    for epoch in range(100):
        model.train()
        optimizer.zero_grad()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        loss.backward()
        optimizer.step()

        if epoch % 20 == 0:
            model.eval()
            with torch.no_grad():
                pred = model(x, edge_index).argmax(dim=1)
            test_acc = (pred[~train_mask] == y[~train_mask]).float().mean().item()
            print(f"epoch {epoch:3d}  loss {loss.item():.4f}  test acc {test_acc:.3f}")


if __name__ == "__main__":
    main()
