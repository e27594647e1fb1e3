"""Tests for a rolling key/value cache used by the decoder; one test class checks the GPU path."""
import pytest
import torch


class RollingCache:
    def __init__(self, heads, window, head_dim, device=None):
        self.k = torch.zeros(1, heads, window, head_dim, device=device)
        self.v = torch.zeros_like(self.k)
        self.window, self.filled = window, 0

    def append(self, k, v):
        self.k = torch.cat([self.k[:, :, k.size(2):], k], dim=2)
        self.v = torch.cat([self.v[:, :, v.size(2):], v], dim=2)
        self.filled = min(self.window, self.filled + k.size(2))
        return self.k[:, :, -self.filled:], self.v[:, :, -self.filled:]


def test_rolls_on_cpu():
    cache = RollingCache(2, 4, 8)
    for _ in range(6):
        k, v = cache.append(torch.randn(1, 2, 1, 8), torch.randn(1, 2, 1, 8))
    assert k.shape == (1, 2, 4, 8)


class TestRollingCacheGPU:
    def test_stays_on_device(self):
        cache = RollingCache(2, 4, 8, device="cuda")  # expect: DEV022
        k, v = cache.append(torch.randn(1, 2, 3, 8).cuda(), torch.randn(1, 2, 3, 8).cuda())
        assert k.is_cuda and v.is_cuda

    def test_window_matches_cpu(self):
        torch.manual_seed(0)
        steps = [torch.randn(1, 2, 1, 8) for _ in range(5)]
        cpu, gpu = RollingCache(2, 3, 8), RollingCache(2, 3, 8, device=torch.device("cuda"))  # expect: DEV022
        for s in steps:
            kc, _ = cpu.append(s, s)
            kg, _ = gpu.append(s.cuda(), s.cuda())
        assert torch.allclose(kc, kg.cpu())


@pytest.mark.parametrize("window", [1, 2, 5])
def test_filled_never_exceeds_window(window):
    cache = RollingCache(1, window, 4)
    for _ in range(window + 3):
        cache.append(torch.zeros(1, 1, 1, 4), torch.zeros(1, 1, 1, 4))
    assert cache.filled == window
