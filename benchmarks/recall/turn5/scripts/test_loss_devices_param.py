"""Unit tests for a label-smoothing loss, run on each device."""
import pytest
import torch
import torch.nn.functional as F


def smooth_ce(logits, target, eps=0.1):
    n = logits.size(-1)
    logp = F.log_softmax(logits, -1)
    soft = torch.full_like(logp, eps / (n - 1)).scatter_(-1, target[:, None], 1 - eps)
    return -(soft * logp).sum(-1).mean()


@pytest.mark.parametrize("device", ["cpu", "cuda"])  # expect: DEV022
def test_matches_builtin(device):
    torch.manual_seed(0)
    logits = torch.randn(8, 5, device=device)
    target = torch.randint(0, 5, (8,), device=device)
    ours = smooth_ce(logits, target, eps=0.1)
    ref = F.cross_entropy(logits, target, label_smoothing=0.1 * 5 / 4)
    assert torch.allclose(ours, ref, atol=1e-5)


@pytest.mark.parametrize("device", ["cpu", "cuda"])  # expect: DEV022
def test_zero_eps_is_plain_ce(device):
    logits = torch.randn(4, 3, device=device)
    target = torch.tensor([0, 2, 1, 1], device=device)
    assert torch.allclose(smooth_ce(logits, target, eps=0.0), F.cross_entropy(logits, target))


def test_gradient_flows():
    logits = torch.randn(4, 3, requires_grad=True)
    smooth_ce(logits, torch.tensor([0, 1, 2, 0])).backward()
    assert logits.grad is not None
