"""Device tests written so a CPU-only runner skips the CUDA cases."""
import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
DEVICES = ["cpu", pytest.param("cuda", marks=requires_cuda)]


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 2))


@pytest.mark.parametrize("device", DEVICES)
def test_forward_shape(device):
    model = make_model().to(device)
    assert model(torch.randn(3, 6, device=device)).shape == (3, 2)


@requires_cuda
class TestCudaParity:
    def test_same_output(self):
        model = make_model()
        x = torch.randn(5, 6)
        assert torch.allclose(model(x), model.cuda()(x.cuda()).cpu(), atol=1e-5)


def test_half_on_gpu_only():
    if not torch.cuda.is_available():
        pytest.skip("no GPU")
    model = make_model().cuda().half()
    assert model(torch.randn(2, 6, device="cuda", dtype=torch.half)).dtype == torch.half
