"""pytest suite for a small attention pooling layer.

run: pytest -q y_pytest_model.py
"""
import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


class AttentionPool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, x, mask=None):
        s = self.score(x).squeeze(-1)
        if mask is not None:
            s = s.masked_fill(~mask, float("-inf"))
        w = torch.softmax(s, dim=-1)
        return (w.unsqueeze(-1) * x).sum(1)


@pytest.fixture
def layer():
    torch.manual_seed(0)
    return AttentionPool(8)


def test_output_shape(layer):
    out = layer(torch.randn(3, 5, 8))
    assert out.shape == (3, 8)


def test_mask_ignores_padding(layer):
    x = torch.randn(2, 4, 8)
    mask = torch.tensor([[True, True, False, False], [True, True, True, True]])
    x2 = x.clone()
    x2[0, 2:] = 100.0
    assert torch.allclose(layer(x, mask)[0], layer(x2, mask)[0])


@requires_cuda
def test_cuda_matches_cpu(layer):
    x = torch.randn(4, 6, 8)
    ref = layer(x)
    out = layer.to("cuda")(x.to("cuda"))
    assert torch.allclose(ref, out.cpu(), atol=1e-5)


def test_half_precision_close(layer):
    x = torch.randn(4, 6, 8)
    ref = layer(x)
    half = layer.to("cuda").half()  # expect: DEV022
    out = half(x.to("cuda").half()).float().cpu()
    assert torch.allclose(ref, out, atol=1e-2)


def test_gradients_flow(layer):
    x = torch.randn(2, 3, 8, requires_grad=True)
    layer(x).sum().backward()
    assert x.grad is not None and layer.score.weight.grad is not None
