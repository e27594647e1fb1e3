"""Neighbourhood sampling: keep the edges whose two ends are both in a sampled node subset."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def induced_subgraph(subset, edge_index, num_nodes):
    node_mask = torch.zeros(num_nodes, dtype=torch.bool)  # expect: DEV006
    node_mask[subset] = True
    edge_mask = node_mask[edge_index[0]] & node_mask[edge_index[1]]
    remap = torch.full((num_nodes,), -1, dtype=torch.long, device=edge_index.device)
    remap[subset] = torch.arange(subset.numel(), device=edge_index.device)
    return remap[edge_index[:, edge_mask]]


class SAGE(nn.Module):
    def __init__(self, d_in=8, d_hidden=32, n_classes=4):
        super().__init__()
        self.self_lin = nn.Linear(d_in, d_hidden)
        self.nbr_lin = nn.Linear(d_in, d_hidden)
        self.out = nn.Linear(d_hidden, n_classes)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        cnt = torch.zeros(x.size(0), device=x.device).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        h = F.relu(self.self_lin(x) + self.nbr_lin(agg / cnt.clamp(min=1).unsqueeze(-1)))
        return self.out(h)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 300
    x = torch.randn(n, 8, device=device)
    y = torch.randint(0, 4, (n,), device=device)
    edge_index = torch.randint(0, n, (2, 2000), device=device)
    model = SAGE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for step in range(5):
        subset = torch.randperm(n, device=device)[:100]
        sub_edges = induced_subgraph(subset, edge_index, n)
        loss = F.cross_entropy(model(x[subset], sub_edges), y[subset])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
