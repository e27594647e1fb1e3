"""Tests for the greedy decoder used by the demo server."""
import copy

import pytest
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=50, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids, h=None):
        y, h = self.rnn(self.emb(ids), h)
        return self.out(y), h


@torch.no_grad()
def greedy_decode(model, prompt, max_new_tokens, eos_id=None):
    model.eval()
    logits, h = model(prompt)
    out = [prompt]
    tok = logits[:, -1].argmax(-1, keepdim=True)
    for _ in range(max_new_tokens):
        out.append(tok)
        if eos_id is not None and bool((tok == eos_id).all()):
            break
        logits, h = model(tok, h)
        tok = logits[:, -1].argmax(-1, keepdim=True)
    return torch.cat(out, dim=1)


@pytest.fixture
def model():
    torch.manual_seed(0)
    return TinyLM()


def test_output_length(model):
    prompt = torch.randint(0, 50, (3, 4))
    out = greedy_decode(model, prompt, max_new_tokens=6)
    assert out.shape == (3, 10)
    assert torch.equal(out[:, :4], prompt)


def test_deterministic(model):
    prompt = torch.randint(0, 50, (2, 5))
    a = greedy_decode(model, prompt, 8)
    b = greedy_decode(model, prompt, 8)
    assert torch.equal(a, b)


def test_stops_at_eos(model):
    prompt = torch.randint(0, 50, (1, 3))
    first = greedy_decode(model, prompt, 1)[0, -1].item()
    out = greedy_decode(model, prompt, 10, eos_id=first)
    assert out.shape[1] == 4


def test_gpu_matches_cpu(model):
    prompt = torch.randint(0, 50, (2, 5))
    ref = greedy_decode(model, prompt, 8)
    gpu_model = copy.deepcopy(model).cuda()  # expect: DEV022
    out = greedy_decode(gpu_model, prompt.to(gpu_model.out.weight.device), 8)
    assert torch.equal(out.cpu(), ref)
