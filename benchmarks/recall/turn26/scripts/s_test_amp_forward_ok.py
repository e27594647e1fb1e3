"""pytest suite for a small transformer block: shapes, masking, and autocast numerics."""
import pytest
import torch
import torch.nn as nn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


class Block(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, key_padding_mask=None):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return x + self.ff(self.ln2(x))


@pytest.fixture
def block():
    torch.manual_seed(0)
    return Block().eval()


def test_shape(block):
    x = torch.randn(2, 7, 32)
    assert block(x).shape == x.shape


def test_autocast_cpu_bf16(block):
    x = torch.randn(4, 16, 32)
    ref = block(x)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = block(x)
    torch.testing.assert_close(out.float(), ref, atol=1e-1, rtol=1e-1)


@requires_cuda
def test_autocast_matches_fp32(block):
    x = torch.randn(4, 16, 32)
    ref = block(x)
    block_gpu = block.to("cuda")
    with torch.autocast("cuda", dtype=torch.float16):
        out = block_gpu(x.cuda())
    torch.testing.assert_close(out.float().cpu(), ref, atol=2e-2, rtol=2e-2)
