import torch
import pytest


def scatter_mean(src, index, dim_size):
    out = torch.zeros(dim_size, src.size(1), dtype=src.dtype, device=src.device)
    out.index_add_(0, index, src)
    count = torch.bincount(index, minlength=dim_size).clamp(min=1)
    return out / count.unsqueeze(1).to(src.dtype)


def gcn_norm(edge_index, num_nodes):
    row, col = edge_index
    deg = torch.bincount(col, minlength=num_nodes).float()
    inv = deg.pow(-0.5)
    inv[torch.isinf(inv)] = 0
    return inv[row] * inv[col]


def test_scatter_mean_matches_loop():
    src = torch.arange(12, dtype=torch.float32).view(6, 2)
    index = torch.tensor([0, 0, 1, 2, 2, 2])
    out = scatter_mean(src, index, 4)
    assert torch.allclose(out[0], src[:2].mean(0))
    assert torch.allclose(out[2], src[3:].mean(0))
    assert torch.equal(out[3], torch.zeros(2))


def test_gcn_norm_symmetric():
    ei = torch.tensor([[0, 1, 1, 2], [1, 0, 2, 1]])
    w = gcn_norm(ei, 3)
    assert w.shape == (4,)
    assert torch.allclose(w[0], w[1])


@pytest.mark.parametrize("dim_size", [3, 5])
def test_scatter_mean_on_gpu(dim_size):
    src = torch.randn(8, 4).cuda()  # expect: DEV022
    index = torch.randint(0, 3, (8,), device=src.device)
    out = scatter_mean(src, index, dim_size)
    assert out.device == src.device
    assert out.shape == (dim_size, 4)
