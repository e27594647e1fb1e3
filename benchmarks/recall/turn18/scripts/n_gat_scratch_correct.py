# Single-head GAT written by hand: edge softmax via scatter, self loops, node classification.
import torch
import torch.nn as nn
import torch.nn.functional as F


def add_self_loops(edge_index, num_nodes):
    loop = torch.arange(num_nodes, device=edge_index.device)
    return torch.cat([edge_index, torch.stack([loop, loop])], dim=1)


def scatter_softmax(scores, index, num_nodes):
    # subtract per-node max for stability
    max_per_node = torch.full((num_nodes,), float("-inf"), device=scores.device)
    max_per_node = max_per_node.scatter_reduce(0, index, scores, reduce="amax", include_self=True)
    ex = (scores - max_per_node[index]).exp()
    denom = torch.zeros(num_nodes, device=scores.device).index_add_(0, index, ex)
    return ex / denom[index].clamp(min=1e-16)


class GATLayer(nn.Module):
    def __init__(self, in_dim, out_dim, negative_slope=0.2):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.att_src = nn.Parameter(torch.empty(out_dim))
        self.att_dst = nn.Parameter(torch.empty(out_dim))
        self.negative_slope = negative_slope
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.xavier_uniform_(self.lin.weight)
        nn.init.normal_(self.att_src, std=0.1)
        nn.init.normal_(self.att_dst, std=0.1)

    def forward(self, x, edge_index):
        n = x.size(0)
        edge_index = add_self_loops(edge_index, n)
        src, dst = edge_index
        h = self.lin(x)
        e = F.leaky_relu((h[src] * self.att_src).sum(-1) + (h[dst] * self.att_dst).sum(-1),
                         self.negative_slope)
        alpha = scatter_softmax(e, dst, n)
        out = torch.zeros_like(h).index_add_(0, dst, h[src] * alpha.unsqueeze(-1))
        return out


class GAT(nn.Module):
    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.l1 = GATLayer(in_dim, hidden)
        self.l2 = GATLayer(hidden, n_classes)

    def reset_parameters(self):
        self.l1.reset_parameters()
        self.l2.reset_parameters()

    def forward(self, x, edge_index):
        return self.l2(F.elu(self.l1(x, edge_index)), edge_index)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    n, d, c = 120, 12, 3
    x = torch.randn(n, d)
    y = torch.randint(0, c, (n,))
    edge_index = torch.randint(0, n, (2, 600))
    perm = torch.randperm(n)
    train_idx, test_idx = perm[:80], perm[80:]  # index tensors stay on the CPU

    x, y, edge_index = x.to(device), y.to(device), edge_index.to(device)
    model = GAT(d, 16, c).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=5e-4)

    for run in range(2):
        model.reset_parameters()
        for epoch in range(40):
            model.train()
            out = model(x, edge_index)
            loss = F.cross_entropy(out[train_idx], y[train_idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            pred = model(x, edge_index).argmax(-1)
        acc = (pred[test_idx] == y[test_idx]).float().mean().item()
        print(f"run {run}: loss {loss.item():.3f} test acc {acc:.3f}")


if __name__ == "__main__":
    main()
