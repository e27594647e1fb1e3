"""Unit tests for the decoding helpers (top-k / top-p filtering, KV-cache consistency)."""
import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F


def top_k_filter(logits, k):
    kth = torch.topk(logits, k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < kth, float("-inf"))


def top_p_filter(logits, p):
    sorted_logits, idx = torch.sort(logits, descending=True, dim=-1)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    remove = cum - sorted_logits.softmax(-1) > p
    sorted_logits = sorted_logits.masked_fill(remove, float("-inf"))
    return torch.full_like(logits, float("-inf")).scatter(-1, idx, sorted_logits)


class TinyAttnLM(nn.Module):
    def __init__(self, vocab=20, d=16, max_len=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, vocab)

    def forward(self, idx, cache=None):
        T = idx.size(1)
        start = 0 if cache is None else cache[0].size(1)
        h = self.emb(idx) + self.pos(torch.arange(start, start + T, device=idx.device))
        q, k, v = self.qkv(h).chunk(3, -1)
        if cache is not None:
            k, v = torch.cat([cache[0], k], 1), torch.cat([cache[1], v], 1)
        att = q @ k.transpose(1, 2) / math.sqrt(q.size(-1))
        L = k.size(1)
        mask = torch.ones(T, L, dtype=torch.bool, device=idx.device).tril(diagonal=L - T)
        att = att.masked_fill(~mask, float("-inf")).softmax(-1)
        return self.out(att @ v), (k, v)


def test_top_k_keeps_k_entries():
    logits = torch.randn(4, 50)
    out = top_k_filter(logits, 5)
    assert torch.isfinite(out).sum(-1).eq(5).all()


def test_top_p_keeps_argmax():
    torch.manual_seed(0)
    logits = torch.randn(3, 30)
    out = top_p_filter(logits, 0.01)
    assert torch.equal(out.argmax(-1), logits.argmax(-1))
    assert torch.isfinite(out).sum(-1).eq(1).all()


def test_top_p_one_is_identity():
    logits = torch.randn(2, 10)
    assert torch.allclose(top_p_filter(logits, 1.0), logits)


def test_kv_cache_matches_full_forward():
    torch.manual_seed(0)
    model = TinyAttnLM().eval()
    idx = torch.randint(0, 20, (2, 7))
    full, _ = model(idx)
    step_logits, cache = model(idx[:, :4])
    outs = [step_logits]
    for t in range(4, 7):
        lg, cache = model(idx[:, t:t + 1], cache)
        outs.append(lg)
    assert torch.allclose(torch.cat(outs, 1), full, atol=1e-5)


def test_filters_on_gpu_match_cpu():
    device = torch.device("cuda")  # expect: DEV022
    logits = torch.randn(8, 100)
    for fn, arg in ((top_k_filter, 10), (top_p_filter, 0.9)):
        cpu_out = fn(logits, arg)
        gpu_out = fn(logits.to(device), arg).cpu()
        assert torch.equal(torch.isfinite(cpu_out), torch.isfinite(gpu_out))


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
