"""Unit tests for the message-passing helpers (run with pytest)."""
import copy

import pytest
import torch
import torch.nn as nn


def scatter_mean(src, index, dim_size):
    out = torch.zeros(dim_size, src.size(-1), dtype=src.dtype, device=src.device)
    out.index_add_(0, index, src)
    count = torch.zeros(dim_size, dtype=src.dtype, device=src.device)
    count.index_add_(0, index, torch.ones_like(index, dtype=src.dtype))
    return out / count.clamp(min=1).unsqueeze(-1)


class MeanConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin_self = nn.Linear(in_dim, out_dim)
        self.lin_neigh = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = scatter_mean(x[src], dst, x.size(0))
        return self.lin_self(x) + self.lin_neigh(agg)


def random_graph(num_nodes=12, num_edges=40, dim=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(num_nodes, dim, generator=g)
    edge_index = torch.randint(0, num_nodes, (2, num_edges), generator=g)
    return x, edge_index


def test_scatter_mean_matches_loop():
    x, edge_index = random_graph()
    src, dst = edge_index
    out = scatter_mean(x[src], dst, x.size(0))
    for node in range(x.size(0)):
        incoming = x[src[dst == node]]
        expected = incoming.mean(0) if len(incoming) else torch.zeros(x.size(1))
        torch.testing.assert_close(out[node], expected)


def test_isolated_node_gets_zero_aggregate():
    x = torch.randn(3, 4)
    edge_index = torch.tensor([[0], [1]])
    out = scatter_mean(x[edge_index[0]], edge_index[1], 3)
    assert torch.all(out[2] == 0)


@pytest.mark.parametrize("out_dim", [1, 5])
def test_meanconv_shapes(out_dim):
    x, edge_index = random_graph()
    conv = MeanConv(x.size(1), out_dim)
    assert conv(x, edge_index).shape == (x.size(0), out_dim)


def test_meanconv_gpu_matches_cpu():
    torch.manual_seed(0)
    x, edge_index = random_graph()
    conv = MeanConv(x.size(1), 6)
    expected = conv(x, edge_index)
    device = torch.device("cuda")  # expect: DEV022
    conv_gpu = copy.deepcopy(conv).to(device)
    got = conv_gpu(x.to(device), edge_index.to(device))
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-5)
