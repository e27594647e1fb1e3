"""Two-layer GCN (Kipf & Welling) written without PyG, on a synthetic
stochastic-block-model graph. Message passing is done with index_add_.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_sbm(num_blocks=4, block_size=60, p_in=0.15, p_out=0.01, feat_dim=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    n = num_blocks * block_size
    y = torch.arange(num_blocks).repeat_interleave(block_size)
    same = y[:, None] == y[None, :]
    prob = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = torch.rand(n, n, generator=g) < prob
    adj = torch.triu(adj, diagonal=1)
    adj = adj | adj.t()
    edge_index = adj.nonzero().t().contiguous()
    centers = torch.randn(num_blocks, feat_dim, generator=g)
    x = centers[y] + 1.5 * torch.randn(n, feat_dim, generator=g)
    perm = torch.randperm(n, generator=g)
    train_mask = torch.zeros(n, dtype=torch.bool)
    val_mask = torch.zeros(n, dtype=torch.bool)
    test_mask = torch.zeros(n, dtype=torch.bool)
    train_mask[perm[:40]] = True
    val_mask[perm[40:100]] = True
    test_mask[perm[100:]] = True
    return {"x": x, "edge_index": edge_index, "y": y,
            "train_mask": train_mask, "val_mask": val_mask, "test_mask": test_mask}


class GCNConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x, edge_index):
        num_nodes = x.size(0)
        loops = torch.arange(num_nodes, device=x.device)
        edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
        row, col = edge_index
        # symmetric normalisation D^-1/2 (A + I) D^-1/2
        deg = torch.zeros(num_nodes)  # expect: DEV006
        deg.index_add_(0, col, torch.ones(col.size(0), device=x.device))
        deg_inv_sqrt = deg.pow(-0.5)
        norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]
        h = self.lin(x)
        out = torch.zeros_like(h)
        out.index_add_(0, col, h[row] * norm.unsqueeze(-1))
        return out + self.bias


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, num_classes, dropout=0.5):
        super().__init__()
        self.conv1 = GCNConv(in_dim, hidden)
        self.conv2 = GCNConv(hidden, num_classes)
        self.dropout = dropout

    def forward(self, x, edge_index):
        x = F.dropout(x, self.dropout, self.training)
        x = F.relu(self.conv1(x, edge_index))
        x = F.dropout(x, self.dropout, self.training)
        return self.conv2(x, edge_index)


def accuracy(logits, y, mask):
    return (logits[mask].argmax(-1) == y[mask]).float().mean().item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=50)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--no-cuda", action="store_true")
    args = p.parse_args()

    device = torch.device("cpu" if args.no_cuda or not torch.cuda.is_available() else "cuda")
    data = make_sbm()
    x = data["x"].to(device)
    edge_index = data["edge_index"].to(device)
    y = data["y"]
    train_mask, val_mask = data["train_mask"], data["val_mask"]

    model = GCN(x.size(1), args.hidden, int(y.max()) + 1).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)

    for epoch in range(1, args.epochs + 1):
        model.train()
        optimizer.zero_grad()
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])  # expect: DEV004
        loss.backward()
        optimizer.step()
        if epoch % 10 == 0:
            model.eval()
            with torch.no_grad():
                logits = model(x, edge_index).cpu()
            print(f"epoch {epoch:3d} loss {loss.item():.4f} "
                  f"train {accuracy(logits, data['y'], train_mask):.3f} "
                  f"val {accuracy(logits, data['y'], val_mask):.3f}")


if __name__ == "__main__":
    main()
