"""Link prediction with a hand-written GCN (symmetric degree normalisation via
index_add_), random negative sampling and a dot-product decoder. No PyG needed.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def random_graph(num_nodes, num_edges, feat_dim, seed=0):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(0, num_nodes, (num_edges,), generator=g)
    dst = (src + torch.randint(1, 5, (num_edges,), generator=g)) % num_nodes
    edge_index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    x = torch.randn(num_nodes, feat_dim, generator=g)
    return x, edge_index


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n, device=x.device)
        row = torch.cat([edge_index[0], loops])
        col = torch.cat([edge_index[1], loops])
        deg = torch.zeros(n, device=x.device).index_add_(0, row, torch.ones(row.numel(), device=x.device))
        norm = deg[row].rsqrt() * deg[col].rsqrt()
        h = self.lin(x)
        out = torch.zeros_like(h)
        out.index_add_(0, col, h[row] * norm.unsqueeze(1))
        return out


class GCNEncoder(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = nn.ModuleList(GCNLayer(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.dropout = nn.Dropout(0.2)

    def forward(self, x, edge_index):
        for i, layer in enumerate(self.layers):
            x = layer(x, edge_index)
            if i < len(self.layers) - 1:
                x = self.dropout(F.relu(x))
        return x


def train_step(model, opt, x, edge_index, num_nodes):
    model.train()
    z = model(x, edge_index)
    pos = edge_index[:, torch.randperm(edge_index.size(1), device=edge_index.device)[:256]]
    neg = torch.randint(0, num_nodes, (2, pos.size(1)))
    pos_score = (z[pos[0]] * z[pos[1]]).sum(-1)
    neg_score = (z[neg[0]] * z[neg[1]]).sum(-1)
    scores = torch.cat([pos_score, neg_score])
    labels = torch.cat([torch.ones_like(pos_score), torch.zeros_like(neg_score)])
    loss = F.binary_cross_entropy_with_logits(scores, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=300)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--cpu", action="store_true")
    args = ap.parse_args()
    device = torch.device("cpu" if args.cpu or not torch.cuda.is_available() else "cuda")

    x, edge_index = random_graph(args.nodes, 900, 16)
    x, edge_index = x.to(device), edge_index.to(device)
    model = GCNEncoder([16, 32, 16]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        loss = train_step(model, opt, x, edge_index, args.nodes)
        if epoch % 5 == 0:
            print(f"epoch {epoch:02d} loss {loss:.4f}")


if __name__ == "__main__":
    main()
