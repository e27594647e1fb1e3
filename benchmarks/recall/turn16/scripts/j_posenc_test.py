"""Tests for the positional-encoding and causal-mask helpers used by the decoder."""
import math

import pytest
import torch
import torch.nn as nn

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA not available")


class SinusoidalPE(nn.Module):
    def __init__(self, d_model, max_len=256):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe, persistent=False)

    def forward(self, x, offset=0):
        return x + self.pe[offset:offset + x.size(1)]


def causal_mask(T, device=None):
    return torch.triu(torch.full((T, T), float("-inf"), device=device), diagonal=1)


@pytest.mark.parametrize("device", DEVICES)
def test_pe_shape_and_device(device):
    pe = SinusoidalPE(16).to(device)
    x = torch.zeros(2, 10, 16, device=device)
    y = pe(x)
    assert y.shape == x.shape
    assert y.device.type == device


@pytest.mark.parametrize("device", DEVICES)
def test_pe_offset_consistent(device):
    pe = SinusoidalPE(8).to(device)
    x = torch.zeros(1, 12, 8, device=device)
    full = pe(x)
    tail = pe(x[:, 5:], offset=5)
    assert torch.allclose(full[:, 5:], tail)


def test_causal_mask_upper_triangle():
    m = causal_mask(5)
    assert torch.isinf(m[0, 1:]).all()
    assert (m.tril() == 0).all()


@requires_cuda
def test_cuda_matches_cpu():
    pe_cpu = SinusoidalPE(32)
    pe_gpu = SinusoidalPE(32).cuda()
    x = torch.randn(3, 20, 32)
    assert torch.allclose(pe_cpu(x), pe_gpu(x.cuda()).cpu(), atol=1e-6)
    assert torch.equal(causal_mask(6, device="cuda").cpu(), causal_mask(6))


def test_attention_with_mask_is_causal():
    torch.manual_seed(0)
    attn = nn.MultiheadAttention(16, 2, batch_first=True)
    x = torch.randn(1, 6, 16)
    out_full, _ = attn(x, x, x, attn_mask=causal_mask(6))
    x2 = x.clone()
    x2[:, -1] += 10.0
    out_pert, _ = attn(x2, x2, x2, attn_mask=causal_mask(6))
    assert torch.allclose(out_full[:, :-1], out_pert[:, :-1], atol=1e-5)
