"""Device tests for the repetition-penalty logits processor."""
import pytest
import torch

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def repetition_penalty(logits, prev_ids, penalty=1.2):
    picked = logits.gather(-1, prev_ids)
    picked = torch.where(picked > 0, picked / penalty, picked * penalty)
    return logits.scatter(-1, prev_ids, picked)


def test_penalty_lowers_seen_tokens():
    logits = torch.tensor([[2.0, 1.0, -1.0, 0.5]])
    out = repetition_penalty(logits, torch.tensor([[0, 2]]))
    assert out[0, 0] < logits[0, 0] and out[0, 2] < logits[0, 2]
    assert out[0, 1] == logits[0, 1]


@requires_cuda
def test_penalty_same_on_gpu():
    torch.manual_seed(0)
    logits = torch.randn(2, 64)
    prev = torch.randint(0, 64, (2, 8))
    expected = repetition_penalty(logits, prev)
    got = repetition_penalty(logits.cuda(), prev.cuda())
    torch.testing.assert_close(got.cpu(), expected)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_penalty_keeps_device():
    logits = torch.randn(1, 10, device="cuda")
    out = repetition_penalty(logits, torch.tensor([[1, 2]], device="cuda"))
    assert out.is_cuda
