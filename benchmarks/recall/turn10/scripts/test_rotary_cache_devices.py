"""Unit tests for a rotary-embedding cache: the cached cos/sin tables must match a direct
computation and must grow when a longer sequence arrives. The suite runs on a CPU-only CI runner
as well as on the GPU box.

Thread: https://github.com/bitsandbytes-foundation/bitsandbytes/pull/985 (tests: most CUDA tests
were left to fail with "Torch not compiled with CUDA enabled" instead of being skipped).
"""
import pytest
import torch


class RotaryCache(torch.nn.Module):
    def __init__(self, dim, max_len=64, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / base ** (torch.arange(0, dim, 2).float() / dim)
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self._build(max_len)

    def _build(self, n):
        t = torch.arange(n, device=self.inv_freq.device).float()
        freqs = torch.outer(t, self.inv_freq)
        self.register_buffer("cos", freqs.cos(), persistent=False)
        self.register_buffer("sin", freqs.sin(), persistent=False)

    def forward(self, n):
        if n > self.cos.size(0):
            self._build(n)
        return self.cos[:n], self.sin[:n]


@pytest.mark.parametrize("device", ["cpu", "cuda"])  # expect: DEV022
def test_cache_matches_direct(device):
    rope = RotaryCache(32, max_len=64).to(device)
    cos, sin = rope(48)
    t = torch.arange(48, device=device).float()
    ref = torch.outer(t, rope.inv_freq)
    torch.testing.assert_close(cos, ref.cos())
    torch.testing.assert_close(sin, ref.sin())


def test_cache_grows_on_gpu():
    rope = RotaryCache(16, max_len=8).cuda()  # expect: DEV022
    cos, _ = rope(20)
    assert cos.shape == (20, 8)
    assert cos.device.type == "cuda"


def test_cpu_shapes():
    cos, sin = RotaryCache(8, max_len=4)(4)
    assert cos.shape == sin.shape == (4, 4)
