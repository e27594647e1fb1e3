"""pytest suite that needs a GPU, skipped as a whole on machines without one."""
import pytest
import torch
import torch.nn as nn

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


@pytest.fixture
def device():
    return torch.device("cuda")


def test_linear_matches_cpu(device):
    layer = nn.Linear(16, 8)
    x = torch.randn(4, 16)
    expected = layer(x)
    torch.testing.assert_close(layer.to(device)(x.to(device)).cpu(), expected, rtol=1e-4, atol=1e-4)


def test_half_precision_forward(device):
    layer = nn.Linear(16, 8).to(device).half()
    assert layer(torch.randn(2, 16, device=device, dtype=torch.half)).dtype == torch.half
