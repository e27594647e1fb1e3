"""Unit tests for a temporal convolution block, run on every available device.

    pytest p_test_model_devices_ok.py -q
"""
import pytest
import torch
import torch.nn as nn

DEVICES = [
    "cpu",
    pytest.param("cuda", marks=pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")),
]
requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")


class CausalConv1d(nn.Conv1d):
    def __init__(self, cin, cout, k, dilation=1):
        super().__init__(cin, cout, k, dilation=dilation)
        self.left = (k - 1) * dilation

    def forward(self, x):
        return super().forward(nn.functional.pad(x, (self.left, 0)))


class TCNBlock(nn.Module):
    def __init__(self, c, k=3, dilation=1):
        super().__init__()
        self.conv1 = CausalConv1d(c, c, k, dilation)
        self.conv2 = CausalConv1d(c, c, k, dilation)

    def forward(self, x):
        return torch.relu(x + self.conv2(torch.relu(self.conv1(x))))


@pytest.mark.parametrize("device", DEVICES)
def test_shape_is_preserved(device):
    block = TCNBlock(4, dilation=2).to(device)
    x = torch.randn(2, 4, 30, device=device)
    assert block(x).shape == x.shape


@pytest.mark.parametrize("device", DEVICES)
def test_causality(device):
    block = TCNBlock(3).to(device).eval()
    x = torch.randn(1, 3, 20, device=device)
    y1 = block(x)
    x2 = x.clone()
    x2[..., 15:] += 1.0
    y2 = block(x2)
    torch.testing.assert_close(y1[..., :15], y2[..., :15])


@requires_cuda
def test_cpu_and_gpu_agree():
    torch.manual_seed(0)
    block = TCNBlock(4).eval()
    x = torch.randn(2, 4, 16)
    with torch.no_grad():
        ref = block(x)
        out = block.cuda()(x.cuda()).cpu()
    torch.testing.assert_close(out, ref, atol=1e-5, rtol=1e-4)
