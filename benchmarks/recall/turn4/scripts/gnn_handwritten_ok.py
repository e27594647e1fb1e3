"""Hand-written graph layers with their index tensors on the edges' device and layers in a ModuleList;
the node mask for the subgraph is built on the CPU and indexed with CPU indices only."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def induced_subgraph(subset, edge_index, num_nodes):
    subset_cpu, edges_cpu = subset.cpu(), edge_index.cpu()
    node_mask = torch.zeros(num_nodes, dtype=torch.bool)
    node_mask[subset_cpu] = True
    edge_mask = node_mask[edges_cpu[0]] & node_mask[edges_cpu[1]]
    remap = torch.full((num_nodes,), -1, dtype=torch.long)
    remap[subset_cpu] = torch.arange(subset_cpu.numel())
    return remap[edges_cpu[:, edge_mask]].to(edge_index.device)


class HandGCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out, bias=False)

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n, device=edge_index.device)
        src, dst = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
        deg = torch.zeros(n, device=x.device).index_add_(0, dst, torch.ones_like(dst, dtype=x.dtype))
        norm = deg[src].rsqrt() * deg[dst].rsqrt()
        h = self.lin(x)
        return torch.zeros_like(h).index_add_(0, dst, h[src] * norm.unsqueeze(-1))


class GCN(nn.Module):
    def __init__(self, dims=(8, 32, 32, 4)):
        super().__init__()
        self.layers = nn.ModuleList(HandGCNLayer(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, x, edge_index):
        for i, layer in enumerate(self.layers):
            x = layer(x, edge_index)
            if i < len(self.layers) - 1:
                x = F.relu(x)
        return x


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n = 120
    x = torch.randn(n, 8, device=device)
    y = torch.randint(0, 4, (n,), device=device)
    edge_index = torch.randint(0, n, (2, 600), device=device)
    model = GCN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(3):
        subset = torch.randperm(n, device=device)[:60]
        loss = F.cross_entropy(model(x[subset], induced_subgraph(subset, edge_index, n)), y[subset])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
