"""pytest suite for a small transformer block: shapes, masking, and autocast numerics."""
import pytest
import torch
import torch.nn as nn


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


def test_padding_does_not_leak(block):
    x = torch.randn(1, 6, 32)
    mask = torch.tensor([[False, False, False, False, True, True]])
    y1 = block(x, key_padding_mask=mask)
    x2 = x.clone()
    x2[:, 4:] = 100.0
    y2 = block(x2, key_padding_mask=mask)
    torch.testing.assert_close(y1[:, :4], y2[:, :4])


def test_autocast_matches_fp32(block):
    x = torch.randn(4, 16, 32)
    ref = block(x)
    block_gpu = block.to("cuda")  # expect: DEV022
    with torch.autocast("cuda", dtype=torch.float16):
        out = block_gpu(x.cuda())
    torch.testing.assert_close(out.float().cpu(), ref, atol=2e-2, rtol=2e-2)
