"""pytest tests for a label-smoothed loss, parametrised over devices."""
import pytest
import torch
import torch.nn.functional as F


def smoothed_nll(logits, target, eps=0.1):
    logp = logits.log_softmax(-1)
    nll = -logp.gather(-1, target.unsqueeze(-1)).squeeze(-1)
    return ((1 - eps) * nll - eps * logp.mean(-1)).mean()


@pytest.mark.parametrize("device", ["cpu", "cuda"])  # expect: DEV022
def test_matches_functional(device):
    logits = torch.randn(8, 5, device=device)
    target = torch.randint(0, 5, (8,), device=device)
    ref = F.cross_entropy(logits, target, label_smoothing=0.1 * 5 / 5)
    torch.testing.assert_close(smoothed_nll(logits, target), ref, rtol=1e-5, atol=1e-5)


def test_zero_smoothing_is_nll():
    logits = torch.randn(4, 3)
    target = torch.tensor([0, 2, 1, 1])
    torch.testing.assert_close(smoothed_nll(logits, target, eps=0.0), F.cross_entropy(logits, target))
