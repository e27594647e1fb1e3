"""pytest suite for decoding helpers; the device checks skip on machines without a GPU."""
import pytest
import torch

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def top_p_filter(logits, top_p):
    sorted_logits, sorted_idx = torch.sort(logits, descending=True, dim=-1)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    remove = cum > top_p
    remove[..., 1:] = remove[..., :-1].clone()
    remove[..., 0] = False
    return logits.masked_fill(remove.scatter(-1, sorted_idx, remove), float("-inf"))


def repetition_penalty(logits, prev_tokens, penalty):
    picked = logits.gather(-1, prev_tokens)
    picked = torch.where(picked > 0, picked / penalty, picked * penalty)
    return logits.scatter(-1, prev_tokens, picked)


def test_top_p_keeps_argmax():
    logits = torch.randn(3, 50)
    assert torch.equal(top_p_filter(logits, 0.01).argmax(-1), logits.argmax(-1))


def test_repetition_penalty_lowers_seen_tokens():
    logits = torch.tensor([[2.0, -1.0, 0.5]])
    out = repetition_penalty(logits, torch.tensor([[0, 1]]), 2.0)
    assert out[0, 0] == 1.0 and out[0, 1] == -2.0 and out[0, 2] == 0.5


@requires_cuda
def test_top_p_same_on_gpu():
    logits = torch.randn(4, 100)
    got = top_p_filter(logits.cuda(), 0.9)
    assert torch.equal(torch.isinf(got.cpu()), torch.isinf(top_p_filter(logits, 0.9)))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_repetition_penalty_on_device():
    device = torch.device("cuda")
    logits = torch.randn(2, 9, device=device)
    prev = torch.randint(0, 9, (2, 3), device=device)
    assert repetition_penalty(logits, prev, 1.3).device == logits.device
