"""Tests for the GAN building blocks (pytest)."""
import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")

DEVICES = ["cpu", pytest.param("cuda", marks=requires_cuda)]


class MinibatchStdDev(nn.Module):
    """Appends the mean per-feature std over the minibatch as an extra channel."""

    def forward(self, x):
        std = x.std(dim=0, unbiased=False).mean()
        return torch.cat([x, std.expand(x.size(0), 1, *x.shape[2:])], dim=1)


class PixelNorm(nn.Module):
    def forward(self, x, eps=1e-8):
        return x * torch.rsqrt(x.pow(2).mean(dim=1, keepdim=True) + eps)


class TinyGenerator(nn.Module):
    def __init__(self, nz=16):
        super().__init__()
        self.fc = nn.Linear(nz, 32 * 4 * 4)
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(32, 16, 3, padding=1), PixelNorm(), nn.LeakyReLU(0.2),
                                nn.Conv2d(16, 1, 1), nn.Tanh())

    def forward(self, z):
        return self.up(self.fc(z).view(-1, 32, 4, 4))


@pytest.mark.parametrize("device", DEVICES)
def test_minibatch_stddev_adds_one_channel(device):
    x = torch.randn(4, 8, 5, 5, device=device)
    out = MinibatchStdDev()(x)
    assert out.shape == (4, 9, 5, 5)
    assert out.device == x.device


@pytest.mark.parametrize("device", DEVICES)
def test_pixelnorm_unit_rms(device):
    x = torch.randn(2, 16, 3, 3, device=device) * 7
    y = PixelNorm()(x)
    torch.testing.assert_close(y.pow(2).mean(dim=1), torch.ones(2, 3, 3, device=device), rtol=1e-4, atol=1e-4)


def test_generator_output_range():
    g = TinyGenerator()
    img = g(torch.randn(3, 16))
    assert img.shape == (3, 1, 8, 8)
    assert img.min() >= -1 and img.max() <= 1


@requires_cuda
def test_generator_cuda_matches_cpu():
    torch.manual_seed(0)
    g = TinyGenerator().eval()
    z = torch.randn(3, 16)
    expected = g(z)
    got = g.cuda()(z.cuda()).cpu()
    torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)
