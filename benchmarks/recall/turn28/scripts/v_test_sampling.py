"""pytest suite for the sampling helpers of a text generator."""
import pytest
import torch

from torch.nn import functional as F


def top_k_filter(logits, k):
    kth = torch.topk(logits, k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < kth, float("-inf"))


def top_p_filter(logits, p):
    sorted_logits, sorted_idx = logits.sort(dim=-1, descending=True)
    probs = sorted_logits.softmax(-1)
    drop = probs.cumsum(-1) - probs > p
    sorted_logits = sorted_logits.masked_fill(drop, float("-inf"))
    return torch.empty_like(logits).scatter_(-1, sorted_idx, sorted_logits)


def test_top_k_keeps_k():
    logits = torch.randn(4, 50)
    out = top_k_filter(logits, 5)
    assert torch.isfinite(out).sum(-1).eq(5).all()


def test_top_p_keeps_argmax():
    logits = torch.randn(3, 20)
    out = top_p_filter(logits, 0.01)
    assert torch.equal(out.argmax(-1), logits.argmax(-1))


def test_top_p_multinomial_in_support():
    torch.manual_seed(0)
    logits = torch.randn(8, 30)
    filtered = top_p_filter(logits, 0.5)
    draws = torch.multinomial(F.softmax(filtered, -1), 16, replacement=True)
    assert torch.isfinite(filtered.gather(-1, draws)).all()


def test_top_p_half_precision_gpu():
    logits = torch.randn(2, 1000, device="cuda", dtype=torch.float16)  # expect: DEV022
    out = top_p_filter(logits, 0.9)
    assert out.dtype == torch.float16 and out.device == logits.device


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_top_k_matches_cpu_on_gpu():
    logits = torch.randn(2, 100)
    assert torch.equal(top_k_filter(logits.cuda(), 7).cpu(), top_k_filter(logits, 7))
