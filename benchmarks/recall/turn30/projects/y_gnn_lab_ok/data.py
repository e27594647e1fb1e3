"""Synthetic weighted graph (stochastic block model) and a helper that puts it on a device."""
from dataclasses import dataclass

import torch


@dataclass
class Graph:
    x: torch.Tensor
    edge_index: torch.Tensor
    edge_weight: torch.Tensor
    y: torch.Tensor
    train_mask: torch.Tensor
    val_mask: torch.Tensor

    @property
    def num_nodes(self) -> int:
        return self.x.size(0)


def make_sbm_graph(n_blocks, nodes_per_block, feat_dim, seed=0, p_in=0.2, p_out=0.02) -> Graph:
    g = torch.Generator().manual_seed(seed)
    n = n_blocks * nodes_per_block
    y = torch.arange(n_blocks).repeat_interleave(nodes_per_block)
    same = y[:, None] == y[None, :]
    probs = torch.where(same, torch.tensor(p_in), torch.tensor(p_out))
    adj = torch.triu(torch.rand(n, n, generator=g) < probs, diagonal=1)
    adj = adj | adj.T
    edge_index = adj.nonzero().T.contiguous()
    edge_weight = torch.rand(edge_index.size(1), generator=g) * 0.9 + 0.1
    centers = torch.randn(n_blocks, feat_dim, generator=g)
    x = centers[y] + 1.5 * torch.randn(n, feat_dim, generator=g)
    split = torch.rand(n, generator=g)
    return Graph(x, edge_index, edge_weight, y, split < 0.3, split >= 0.7)


def move_graph(graph: Graph, device) -> Graph:
    """Moves features, edges, weights and labels; the masks stay on the CPU (CPU indices are fine)."""
    graph.x = graph.x.to(device)
    graph.edge_index = graph.edge_index.to(device)
    graph.edge_weight = graph.edge_weight.to(device)
    graph.y = graph.y.to(device)
    return graph
