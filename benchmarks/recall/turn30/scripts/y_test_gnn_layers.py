"""pytest suite for a hand-written mean-aggregation message-passing layer."""
import pytest
import torch
import torch.nn as nn


class MeanConv(nn.Module):
    """h_i' = W_self h_i + W_neigh * mean_{j -> i} h_j"""

    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.self_lin = nn.Linear(in_dim, out_dim)
        self.neigh_lin = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        n = x.size(0)
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        count = torch.zeros(n, device=x.device, dtype=x.dtype).index_add_(
            0, dst, torch.ones(dst.numel(), device=x.device, dtype=x.dtype))
        agg = agg / count.clamp(min=1).unsqueeze(-1)
        return self.self_lin(x) + self.neigh_lin(agg)


@pytest.fixture
def path_graph():
    edge_index = torch.tensor([[0, 1, 1, 2, 2, 3], [1, 0, 2, 1, 3, 2]])
    x = torch.arange(8, dtype=torch.float32).view(4, 2)
    return x, edge_index


def test_output_shape(path_graph):
    x, edge_index = path_graph
    conv = MeanConv(2, 5)
    assert conv(x, edge_index).shape == (4, 5)


def test_isolated_node_gets_self_term_only():
    conv = MeanConv(2, 3)
    x = torch.randn(3, 2)
    edge_index = torch.tensor([[0], [1]])
    out = conv(x, edge_index)
    torch.testing.assert_close(out[2], conv.self_lin(x[2]))


def test_permutation_equivariance(path_graph):
    x, edge_index = path_graph
    conv = MeanConv(2, 4)
    perm = torch.tensor([3, 1, 0, 2])
    inv = torch.empty_like(perm)
    inv[perm] = torch.arange(4)
    out = conv(x, edge_index)
    out_p = conv(x[perm], inv[edge_index])
    torch.testing.assert_close(out_p, out[perm])


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_double_precision_on_gpu(path_graph):
    x, edge_index = path_graph
    conv = MeanConv(2, 4).double().cuda()
    assert conv(x.double().cuda(), edge_index.cuda()).dtype == torch.float64


def test_gpu_matches_cpu(path_graph):
    x, edge_index = path_graph
    conv = MeanConv(2, 4)
    expected = conv(x, edge_index)
    conv_gpu = conv.to("cuda")  # expect: DEV022
    got = conv_gpu(x.cuda(), edge_index.cuda()).cpu()
    torch.testing.assert_close(got, expected)
