"""pytest suite for a mean-aggregation message-passing layer and a scatter-softmax helper."""
import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def scatter_softmax(src, index, num_segments):
    """Softmax of src within the groups given by index (used for attention over incoming edges)."""
    seg_max = torch.full((num_segments,), float("-inf"), device=src.device, dtype=src.dtype)
    seg_max = seg_max.scatter_reduce(0, index, src, reduce="amax", include_self=True)
    ex = (src - seg_max[index]).exp()
    denom = torch.zeros(num_segments, device=src.device, dtype=src.dtype).index_add_(0, index, ex)
    return ex / denom[index]


class MeanConv(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.lin = nn.Linear(dim_in, dim_out)

    def forward(self, x, edge_index):
        src, dst = edge_index
        out = torch.zeros(x.size(0), x.size(1), device=x.device, dtype=x.dtype).index_add_(0, dst, x[src])
        count = torch.zeros(x.size(0), device=x.device, dtype=x.dtype).index_add_(
            0, dst, torch.ones_like(dst, dtype=x.dtype))
        return self.lin(out / count.clamp(min=1).unsqueeze(-1))


def ring(n, device=None):
    src = torch.arange(n, device=device)
    return torch.stack([src, (src + 1) % n])


def test_scatter_softmax_sums_to_one():
    index = torch.tensor([0, 0, 1, 1, 1, 2])
    out = scatter_softmax(torch.randn(6), index, 3)
    sums = torch.zeros(3).index_add_(0, index, out)
    assert torch.allclose(sums, torch.ones(3))


def test_mean_conv_shape():
    conv = MeanConv(4, 8)
    out = conv(torch.randn(5, 4), ring(5))
    assert out.shape == (5, 8)


@requires_cuda
def test_mean_conv_on_gpu_matches_cpu():
    torch.manual_seed(0)
    conv = MeanConv(4, 4)
    x, ei = torch.randn(6, 4), ring(6)
    expected = conv(x, ei)
    got = conv.cuda()(x.cuda(), ei.cuda()).cpu()
    assert torch.allclose(expected, got, atol=1e-5)


def test_scatter_softmax_on_gpu():
    index = torch.tensor([0, 1, 1, 2, 2, 2], device="cuda")  # expect: DEV022
    out = scatter_softmax(torch.randn(6, device=index.device), index, 3)
    assert out.device.type == "cuda"
    assert torch.allclose(out[index == 2].sum(), torch.tensor(1.0, device=index.device))
