"""Correct look-alike: message passing whose degree, self loops and pooling buffers are made on
the node features' device; a CPU boolean edge mask (legal) drops edges for augmentation."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAGELayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_lin = nn.Linear(d_in, d_out)
        self.nbr_lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n, device=x.device)
        edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
        src, dst = edge_index
        deg = x.new_zeros(n).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        agg = x.new_zeros(n, x.size(1)).index_add_(0, dst, x[src]) / deg.clamp(min=1).unsqueeze(-1)
        return self.self_lin(x) + self.nbr_lin(agg)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 120
    x = torch.randn(n, 8)
    edge_index = torch.randint(0, n, (2, 600))
    y = (x[:, 0] > 0).long()
    x, y, edge_index = x.to(device), y.to(device), edge_index.to(device)
    layer1, layer2 = SAGELayer(8, 16).to(device), SAGELayer(16, 2).to(device)
    opt = torch.optim.Adam(list(layer1.parameters()) + list(layer2.parameters()), lr=1e-2)
    for epoch in range(30):
        keep = torch.rand(edge_index.size(1)) > 0.2
        ei = edge_index[:, keep]
        out = layer2(F.relu(layer1(x, ei)), ei)
        loss = F.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
