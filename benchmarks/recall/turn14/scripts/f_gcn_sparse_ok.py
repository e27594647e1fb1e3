"""Deep Graph Infomax style pretraining with a GCN encoder written with index_add_.

Negative samples are the same graph with shuffled node features; a linear
probe on the frozen embeddings reports node-classification accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def planted_partition(n=150, k=3, p_in=0.12, p_out=0.01, n_feats=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.arange(n) % k
    p = torch.full((n, n), p_out)
    p[y.unsqueeze(0) == y.unsqueeze(1)] = p_in
    a = torch.triu(torch.rand(n, n, generator=g) < p, diagonal=1)
    src, dst = a.nonzero(as_tuple=True)
    edge_index = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)
    x = F.one_hot(y, k).float() @ torch.randn(k, n_feats, generator=g) + torch.randn(n, n_feats, generator=g)
    return x, edge_index, y


def gcn_norm(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device)
    edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
    deg = torch.zeros(num_nodes, device=edge_index.device).index_add_(
        0, edge_index[1], torch.ones(edge_index.size(1), device=edge_index.device)
    )
    w = deg[edge_index[0]].rsqrt() * deg[edge_index[1]].rsqrt()
    return edge_index, w


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index, weight):
        h = self.lin(x)
        out = x.new_zeros(h.shape)
        return out.index_add_(0, edge_index[1], h[edge_index[0]] * weight.unsqueeze(1))


class Encoder(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.layers = nn.ModuleList([GCNLayer(in_dim, hidden), GCNLayer(hidden, hidden)])
        self.act = nn.PReLU(hidden)

    def forward(self, x, edge_index, weight):
        for layer in self.layers:
            x = self.act(layer(x, edge_index, weight))
        return x


class DGI(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.encoder = Encoder(in_dim, hidden)
        self.W = nn.Parameter(torch.empty(hidden, hidden))
        nn.init.xavier_uniform_(self.W)

    def forward(self, x, edge_index, weight, perm):
        pos = self.encoder(x, edge_index, weight)
        neg = self.encoder(x[perm], edge_index, weight)
        summary = torch.sigmoid(pos.mean(dim=0))
        logits = torch.cat([pos @ (self.W @ summary), neg @ (self.W @ summary)])
        labels = torch.cat([torch.ones(pos.size(0), device=x.device), torch.zeros(neg.size(0), device=x.device)])
        return F.binary_cross_entropy_with_logits(logits, labels)


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, edge_index, y = planted_partition()
    x, edge_index, y = x.to(device), edge_index.to(device), y.to(device)
    norm_index, norm_weight = gcn_norm(edge_index, x.size(0))

    model = DGI(x.size(1), 64).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(100):
        perm = torch.randperm(x.size(0))
        loss = model(x, norm_index, norm_weight, perm)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if epoch % 25 == 0:
            print(f"epoch {epoch:3d}  dgi loss {loss.item():.4f}")

    with torch.no_grad():
        emb = model.encoder(x, norm_index, norm_weight)
    split = torch.randperm(x.size(0))
    train_idx, test_idx = split[:50], split[50:]
    probe = nn.Linear(emb.size(1), int(y.max()) + 1).to(device)
    probe_opt = torch.optim.Adam(probe.parameters(), lr=0.01)
    for _ in range(200):
        probe_loss = F.cross_entropy(probe(emb[train_idx]), y[train_idx])
        probe_opt.zero_grad()
        probe_loss.backward()
        probe_opt.step()
    acc = (probe(emb[test_idx]).argmax(1) == y[test_idx]).float().mean().item()
    print(f"linear probe accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
