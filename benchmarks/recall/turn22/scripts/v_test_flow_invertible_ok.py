"""Tests for an affine coupling layer: exact inverse, log-determinant, and the
same checks on the GPU when one is present (skipped otherwise)."""
import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


class AffineCoupling(nn.Module):
    def __init__(self, dim=4, hidden=32):
        super().__init__()
        mask = torch.zeros(dim)
        mask[: dim // 2] = 1
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh(), nn.Linear(hidden, 2 * dim))

    def forward(self, x):
        xm = x * self.mask
        s, t = self.net(xm).chunk(2, -1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        return xm + (1 - self.mask) * (x * s.exp() + t), s.sum(-1)

    def inverse(self, y):
        ym = y * self.mask
        s, t = self.net(ym).chunk(2, -1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        return ym + (1 - self.mask) * ((y - t) * (-s).exp())


def check_roundtrip(device):
    torch.manual_seed(0)
    layer = AffineCoupling().to(device)
    x = torch.randn(10, 4, device=device)
    y, _ = layer(x)
    torch.testing.assert_close(layer.inverse(y), x, rtol=1e-5, atol=1e-5)


def test_roundtrip_cpu():
    check_roundtrip("cpu")


@requires_cuda
def test_roundtrip_cuda():
    check_roundtrip("cuda")


def test_logdet_matches_jacobian():
    torch.manual_seed(1)
    layer = AffineCoupling().double()
    x = torch.randn(4, dtype=torch.double)
    _, logdet = layer(x.unsqueeze(0))
    jac = torch.autograd.functional.jacobian(lambda v: layer(v.unsqueeze(0))[0].squeeze(0), x)
    torch.testing.assert_close(logdet.squeeze(0), torch.linalg.slogdet(jac)[1])


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_half_precision_cuda():
    layer = AffineCoupling().to("cuda", torch.float16)
    x = torch.randn(8, 4, device="cuda", dtype=torch.float16)
    y, logdet = layer(x)
    assert y.dtype == torch.float16 and torch.isfinite(logdet).all()
