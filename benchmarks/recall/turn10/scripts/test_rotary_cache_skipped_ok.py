"""Correct look-alike: the same rotary-cache tests, with every CUDA case skipped where there is no
GPU: a skip mark on the "cuda" parameter value, a skipif on the GPU-only test, and an in-body
pytest.skip for a test that needs two GPUs.

Thread: https://github.com/openvinotoolkit/nncf/pull/2242 ([Torch] skip cuda test if cuda is not
available, to fix the CPU pre-commit).
"""
import pytest
import torch

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")


class RotaryCache(torch.nn.Module):
    def __init__(self, dim, max_len=64, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / base ** (torch.arange(0, dim, 2).float() / dim)
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self._build(max_len)

    def _build(self, n):
        freqs = torch.outer(torch.arange(n, device=self.inv_freq.device).float(), self.inv_freq)
        self.register_buffer("cos", freqs.cos(), persistent=False)
        self.register_buffer("sin", freqs.sin(), persistent=False)

    def forward(self, n):
        if n > self.cos.size(0):
            self._build(n)
        return self.cos[:n], self.sin[:n]


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=requires_cuda)])
def test_cache_matches_direct(device):
    rope = RotaryCache(32, max_len=64).to(device)
    cos, _ = rope(48)
    ref = torch.outer(torch.arange(48, device=device).float(), rope.inv_freq).cos()
    torch.testing.assert_close(cos, ref)


@requires_cuda
def test_cache_grows_on_gpu():
    rope = RotaryCache(16, max_len=8).cuda()
    assert rope(20)[0].device.type == "cuda"


def test_cache_on_second_gpu():
    if torch.cuda.device_count() < 2:
        pytest.skip("needs two GPUs")
    rope = RotaryCache(16).to("cuda:1")
    assert rope(4)[0].device == torch.device("cuda:1")
