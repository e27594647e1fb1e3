import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")


class MeanAggConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(2 * d_in, d_out)

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.bincount(dst, minlength=x.size(0)).clamp(min=1).unsqueeze(1).to(x.dtype)
        return self.lin(torch.cat([x, agg / deg], dim=1))


def _graph(device="cpu"):
    x = torch.randn(6, 4, device=device)
    ei = torch.tensor([[0, 1, 2, 3, 4], [1, 2, 3, 4, 5]], device=device)
    return x, ei


def test_output_shape():
    conv = MeanAggConv(4, 8)
    x, ei = _graph()
    assert conv(x, ei).shape == (6, 8)


def test_isolated_node_gets_only_self_term():
    conv = MeanAggConv(4, 8)
    x, ei = _graph()
    out = conv(x, ei)
    expected = conv.lin(torch.cat([x[0:1], torch.zeros(1, 4)], dim=1))
    assert torch.allclose(out[0:1], expected, atol=1e-6)


@requires_cuda
def test_runs_on_gpu():
    device = torch.device("cuda")
    conv = MeanAggConv(4, 8).to(device)
    x, ei = _graph(device)
    out = conv(x, ei)
    assert out.is_cuda


@pytest.mark.parametrize("device", [
    "cpu",
    pytest.param("cuda", marks=pytest.mark.skipif(not torch.cuda.is_available(), reason="no GPU")),
])
def test_matches_cpu_reference(device):
    torch.manual_seed(0)
    conv = MeanAggConv(4, 8)
    x, ei = _graph()
    ref = conv(x, ei)
    out = conv.to(device)(x.to(device), ei.to(device))
    assert torch.allclose(out.cpu(), ref, atol=1e-5)
