"""Cached decoding must give the same logits as a full forward pass."""
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")

DEVICES = [
    "cpu",
    pytest.param("cuda", marks=requires_cuda),
]


class CachedAttention(nn.Module):
    def __init__(self, dim=16, heads=2):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, cache=None):
        B, T, D = x.shape
        q, k, v = (t.view(B, T, self.heads, self.hd).transpose(1, 2) for t in self.qkv(x).chunk(3, -1))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        S = k.size(2)
        mask = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(S - T)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return out.transpose(1, 2).reshape(B, T, D), (k, v)


@pytest.mark.parametrize("device", DEVICES)
def test_incremental_matches_full(device):
    torch.manual_seed(0)
    attn = CachedAttention().to(device)
    x = torch.randn(2, 6, 16, device=device)
    full, _ = attn(x)
    cache, steps = None, []
    for t in range(x.size(1)):
        y, cache = attn(x[:, t:t + 1], cache)
        steps.append(y)
    torch.testing.assert_close(torch.cat(steps, dim=1), full, atol=1e-5, rtol=1e-4)


@requires_cuda
def test_cache_stays_on_device():
    attn = CachedAttention().cuda()
    _, (k, v) = attn(torch.randn(1, 3, 16, device="cuda"))
    assert k.is_cuda and v.is_cuda


def test_cache_shapes():
    attn = CachedAttention()
    _, (k, v) = attn(torch.randn(3, 4, 16))
    _, (k2, v2) = attn(torch.randn(3, 1, 16), (k, v))
    assert k2.shape == (3, 2, 5, 8) and v2.shape == k2.shape
