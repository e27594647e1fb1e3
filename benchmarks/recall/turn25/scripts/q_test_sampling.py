"""pytest suite for the sampling utilities (top-k, top-p, repetition penalty).

Run with:  pytest -q q_test_sampling.py
"""
import pytest
import torch


def top_k_filter(logits, k):
    kth = torch.topk(logits, k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < kth, float("-inf"))


def top_p_filter(logits, p):
    probs, idx = logits.softmax(-1).sort(-1, descending=True)
    drop = probs.cumsum(-1) - probs > p
    drop = drop.scatter(-1, idx, drop)
    return logits.masked_fill(drop, float("-inf"))


def repetition_penalty(logits, prev_ids, penalty):
    picked = logits.gather(-1, prev_ids)
    picked = torch.where(picked > 0, picked / penalty, picked * penalty)
    return logits.scatter(-1, prev_ids, picked)


@pytest.fixture
def logits():
    torch.manual_seed(0)
    return torch.randn(4, 50)


def test_top_k_keeps_k(logits):
    out = top_k_filter(logits, 5)
    assert (out.isfinite().sum(-1) == 5).all()


def test_top_p_keeps_at_least_one(logits):
    out = top_p_filter(logits, 0.01)
    assert (out.isfinite().sum(-1) >= 1).all()


def test_penalty_lowers_seen_tokens(logits):
    prev = torch.tensor([[1, 2], [3, 4], [5, 6], [7, 8]])
    out = repetition_penalty(logits, prev, 1.5)
    assert (out.gather(-1, prev) <= logits.gather(-1, prev)).all()


def test_filters_match_on_gpu(logits):
    gpu_logits = logits.to("cuda")  # expect: DEV022
    for k in (1, 5, 20):
        assert torch.equal(top_k_filter(gpu_logits, k).cpu(), top_k_filter(logits, k))
    assert torch.equal(top_p_filter(gpu_logits, 0.9).cpu(), top_p_filter(logits, 0.9))


class TestHalfPrecision:
    def test_penalty_in_fp16(self, logits):
        half = logits.half().cuda()  # expect: DEV022
        prev = torch.tensor([[0], [1], [2], [3]], device=half.device)
        out = repetition_penalty(half, prev, 1.2)
        assert out.dtype == torch.float16
        torch.testing.assert_close(out.float().cpu(), repetition_penalty(logits, prev.cpu(), 1.2), atol=1e-2, rtol=1e-2)
