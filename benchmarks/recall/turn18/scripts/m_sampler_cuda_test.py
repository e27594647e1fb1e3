"""Tests for the nucleus / top-k sampling helpers used by the chat server."""
import pytest
import torch
import torch.nn.functional as F


def top_k_top_p(logits, top_k=0, top_p=1.0):
    if top_k > 0:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1, None]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if top_p < 1.0:
        sorted_logits, idx = torch.sort(logits, descending=True, dim=-1)
        cum = sorted_logits.softmax(-1).cumsum(-1)
        drop = cum - sorted_logits.softmax(-1) > top_p
        logits = logits.masked_fill(drop.scatter(-1, idx, drop), float("-inf"))
    return logits


def test_top_k_keeps_k_tokens():
    torch.manual_seed(0)
    logits = torch.randn(3, 50)
    out = top_k_top_p(logits, top_k=5)
    assert (out > float("-inf")).sum(-1).tolist() == [5, 5, 5]


def test_top_p_keeps_most_likely():
    logits = torch.tensor([[4.0, 3.0, 0.0, -1.0]])
    out = top_k_top_p(logits, top_p=0.5)
    assert torch.isfinite(out[0, 0]) and not torch.isfinite(out[0, 3])


def test_sampling_matches_cpu_on_gpu():
    torch.manual_seed(0)
    logits = torch.randn(4, 128)
    gpu_logits = logits.to("cuda")  # expect: DEV022
    cpu_out = top_k_top_p(logits, top_k=20, top_p=0.9)
    gpu_out = top_k_top_p(gpu_logits, top_k=20, top_p=0.9)
    assert torch.equal(torch.isfinite(cpu_out), torch.isfinite(gpu_out).cpu())
    probs = F.softmax(gpu_out, dim=-1)
    assert torch.allclose(probs.sum(-1), torch.ones(4, device="cuda"))


@pytest.mark.parametrize("k", [1, 3, 10])
def test_greedy_limit(k):
    logits = torch.arange(20.0).unsqueeze(0)
    out = top_k_top_p(logits, top_k=k)
    assert out.argmax().item() == 19
