"""Hand-written graph attention layer for node classification: the attention scores are
normalised per destination node with a segment softmax built from scatter_reduce/index_add_.

Thread: https://github.com/pyg-team/pytorch_geometric/issues/629 (the device of a tensor built
inside message passing does not follow the node features).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GATLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out, bias=False)
        self.att_src = nn.Parameter(torch.randn(d_out) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(d_out) * 0.1)

    def forward(self, x, edge_index):
        src, dst = edge_index
        h = self.lin(x)
        n = x.size(0)
        e = F.leaky_relu((h * self.att_src).sum(-1)[src] + (h * self.att_dst).sum(-1)[dst], 0.2)
        e_max = torch.full((n,), float("-inf")).scatter_reduce(0, dst, e, reduce="amax")  # expect: DEV006
        w = (e - e_max[dst]).exp()
        denom = h.new_zeros(n).index_add_(0, dst, w)
        alpha = w / denom[dst]
        return h.new_zeros(n, h.size(1)).index_add_(0, dst, alpha[:, None] * h[src])


class GAT(nn.Module):
    def __init__(self, d_in, d_hidden, n_classes):
        super().__init__()
        self.l1, self.l2 = GATLayer(d_in, d_hidden), GATLayer(d_hidden, n_classes)

    def forward(self, x, edge_index):
        return self.l2(F.elu(self.l1(x, edge_index)), edge_index)


def random_graph(n, p, device):
    adj = torch.rand(n, n, device=device) < p
    adj = adj | adj.T | torch.eye(n, dtype=torch.bool, device=device)
    return adj.nonzero().T


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 200
    edge_index = random_graph(n, 0.03, device)
    y = torch.randint(0, 3, (n,), device=device)
    x = F.one_hot(y, 3).float() + 0.8 * torch.randn(n, 3, device=device)
    train_mask = torch.rand(n, device=device) < 0.3
    model = GAT(3, 16, 3).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(50):
        out = model(x, edge_index)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        opt.zero_grad()
        loss.backward()
        opt.step()
    acc = (out.argmax(-1)[~train_mask] == y[~train_mask]).float().mean()
    print(f"test accuracy {acc.item():.3f}")
