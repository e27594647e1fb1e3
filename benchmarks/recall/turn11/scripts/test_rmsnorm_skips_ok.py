"""Look-alike of test_rmsnorm_kernels.py: every test that touches CUDA is skipped on a machine
without a GPU: by a skipif mark on the test or on its class, by a pytest.param mark on the "cuda"
value of a device parameter, or by pytest.skip in the body.

Thread: https://github.com/openvinotoolkit/nncf/pull/2605 (Added torch cuda test skipping in case
it is run on a CPU-only machine).
"""
import pytest
import torch
import torch.nn as nn

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def reference(x, weight, eps=1e-6):
    x64 = x.double()
    return (x64 / torch.sqrt(x64.pow(2).mean(-1, keepdim=True) + eps) * weight.double()).to(x.dtype)


@needs_cuda
def test_matches_reference_on_gpu():
    norm = RMSNorm(16).cuda()
    x = torch.randn(4, 16, device="cuda")
    torch.testing.assert_close(norm(x), reference(x, norm.weight))


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=needs_cuda)])
def test_backward_shapes(device):
    norm = RMSNorm(8).to(device)
    x = torch.randn(3, 8, device=device, requires_grad=True)
    norm(x).sum().backward()
    assert x.grad.shape == x.shape


@needs_cuda
class TestHalfPrecision:
    def test_dtype_kept(self):
        norm = RMSNorm(16).cuda().half()
        assert norm(torch.randn(2, 16, device="cuda", dtype=torch.float16)).dtype == torch.float16


def test_cpu_to_gpu_roundtrip():
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA")
    norm = RMSNorm(4).to("cuda")
    assert norm.weight.device.type == "cuda"
    assert norm.cpu().weight.device.type == "cpu"
