"""Message passing in plain PyTorch (no PyG): a GraphSAGE-mean layer over an edge list, for molecule graphs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAGEMean(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.self_lin = nn.Linear(in_dim, out_dim)
        self.neigh_lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros(x.size(0), x.size(1))  # expect: DEV006
        agg.index_add_(0, dst, x[src])
        count = torch.bincount(dst, minlength=x.size(0)).clamp(min=1).unsqueeze(-1)
        return self.self_lin(x) + self.neigh_lin(agg / count)


class MolNet(nn.Module):
    def __init__(self, n_atom_types=20, dim=64):
        super().__init__()
        self.emb = nn.Embedding(n_atom_types, dim)
        self.convs = nn.ModuleList([SAGEMean(dim, dim) for _ in range(3)])
        self.readout = nn.Linear(dim, 1)

    def forward(self, atoms, edge_index, graph_ids, n_graphs):
        h = self.emb(atoms)
        for conv in self.convs:
            h = F.relu(conv(h, edge_index))
        pooled = torch.zeros(n_graphs, h.size(1), device=h.device).index_add_(0, graph_ids, h)
        return self.readout(pooled).squeeze(-1)


def random_batch(n_graphs=8, nodes_per=12):
    atoms = torch.randint(0, 20, (n_graphs * nodes_per,))
    graph_ids = torch.arange(n_graphs).repeat_interleave(nodes_per)
    src = torch.randint(0, nodes_per, (n_graphs * 20,)) + torch.arange(n_graphs).repeat_interleave(20) * nodes_per
    dst = torch.randint(0, nodes_per, (n_graphs * 20,)) + torch.arange(n_graphs).repeat_interleave(20) * nodes_per
    return atoms, torch.stack([src, dst]), graph_ids, torch.randn(n_graphs)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MolNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(50):
        atoms, edges, gids, y = (t.to(device) for t in random_batch())
        loss = F.mse_loss(model(atoms, edges, gids, 8), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
