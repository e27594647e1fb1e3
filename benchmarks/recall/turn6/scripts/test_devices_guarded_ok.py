"""Correct look-alike: CUDA tests guarded by a skip marker, an availability check in the body,
and a device parametrisation whose "cuda" value carries its own skip."""
import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")


def make():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))


@requires_cuda
def test_forward_on_gpu():
    m = make().cuda()
    assert m(torch.randn(3, 4, device="cuda")).is_cuda


def test_state_dict_roundtrip():
    m = make()
    if not torch.cuda.is_available():
        pytest.skip("no GPU")
    g = make().to("cuda")
    g.load_state_dict(m.state_dict())
    assert torch.allclose(g[0].weight.cpu(), m[0].weight)


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=requires_cuda)])
def test_output_shape(device):
    m = make().to(device)
    assert m(torch.randn(5, 4, device=device)).shape == (5, 2)


def test_long_cast_keeps_device():
    t = torch.randn(4)
    if torch.cuda.is_available():
        t = t.cuda()
    assert t.type(torch.int64).device == t.device
