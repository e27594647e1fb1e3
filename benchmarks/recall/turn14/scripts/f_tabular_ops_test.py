"""Tests for the masked pooling and quantile-loss helpers used by the tabular models.

    pytest -q f_tabular_ops_test.py
"""
import pytest
import torch


def masked_mean(x, mask, dim=1, eps=1e-6):
    """Mean over `dim` of x where mask is 1; x is (B, T, F), mask is (B, T)."""
    mask = mask.to(x.dtype).unsqueeze(-1)
    return (x * mask).sum(dim) / mask.sum(dim).clamp(min=eps)


def quantile_loss(pred, target, quantiles):
    """Pinball loss; pred is (B, Q), target is (B,)."""
    q = torch.as_tensor(quantiles, dtype=pred.dtype, device=pred.device)
    diff = target.unsqueeze(1) - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()


def test_masked_mean_ignores_padding():
    x = torch.arange(24, dtype=torch.float32).view(2, 3, 4)
    mask = torch.tensor([[1, 1, 0], [1, 0, 0]])
    out = masked_mean(x, mask)
    torch.testing.assert_close(out[0], x[0, :2].mean(0))
    torch.testing.assert_close(out[1], x[1, 0])


def test_masked_mean_all_masked_is_finite():
    out = masked_mean(torch.randn(2, 5, 3), torch.zeros(2, 5))
    assert torch.isfinite(out).all()


def test_quantile_loss_median_is_half_l1():
    pred = torch.tensor([[1.0], [2.0], [4.0]])
    target = torch.tensor([2.0, 2.0, 2.0])
    loss = quantile_loss(pred, target, [0.5])
    assert loss.item() == pytest.approx(0.5 * (1 + 0 + 2) / 3)


def test_quantile_loss_same_on_gpu():
    torch.manual_seed(0)
    pred, target = torch.randn(16, 3), torch.randn(16)
    expected = quantile_loss(pred, target, [0.1, 0.5, 0.9])
    got = quantile_loss(pred.cuda(), target.cuda(), [0.1, 0.5, 0.9])  # expect: DEV022
    torch.testing.assert_close(got.cpu(), expected)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_masked_mean_same_on_gpu():
    x, mask = torch.randn(4, 7, 5), (torch.rand(4, 7) > 0.3).long()
    torch.testing.assert_close(masked_mean(x.cuda(), mask.cuda()).cpu(), masked_mean(x, mask))
