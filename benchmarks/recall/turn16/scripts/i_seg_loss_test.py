"""Tests for the segmentation losses (pytest)."""
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


class SoftDiceLoss(nn.Module):
    def __init__(self, num_classes, ignore_index=255, smooth=1.0):
        super().__init__()
        self.num_classes = num_classes
        self.ignore_index = ignore_index
        self.smooth = smooth

    def forward(self, logits, target):
        valid = (target != self.ignore_index)
        onehot = F.one_hot(target.masked_fill(~valid, 0), self.num_classes).permute(0, 3, 1, 2).to(logits.dtype)
        probs = logits.softmax(1) * valid.unsqueeze(1)
        onehot = onehot * valid.unsqueeze(1)
        inter = (probs * onehot).sum((0, 2, 3))
        denom = probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3))
        return 1 - ((2 * inter + self.smooth) / (denom + self.smooth)).mean()


class WeightedCE(nn.Module):
    def __init__(self, weight, ignore_index=255):
        super().__init__()
        self.register_buffer("weight", torch.as_tensor(weight, dtype=torch.float32))
        self.ignore_index = ignore_index

    def forward(self, logits, target):
        return F.cross_entropy(logits, target, weight=self.weight, ignore_index=self.ignore_index)


def perfect_logits(target, num_classes, scale=20.0):
    return F.one_hot(target.clamp(max=num_classes - 1), num_classes).permute(0, 3, 1, 2).float() * scale


def test_dice_is_zero_for_perfect_prediction():
    target = torch.randint(0, 3, (2, 8, 8))
    loss = SoftDiceLoss(3)(perfect_logits(target, 3), target)
    assert loss.item() < 1e-3


def test_dice_ignores_void_pixels():
    target = torch.randint(0, 3, (1, 8, 8))
    logits = perfect_logits(target, 3)
    noisy = target.clone()
    noisy[:, :2] = 255
    assert SoftDiceLoss(3)(logits, noisy).item() < 1e-3


def test_weighted_ce_state_dict_has_weight():
    crit = WeightedCE([1.0, 2.0, 0.5])
    assert "weight" in crit.state_dict()


@requires_cuda
def test_weighted_ce_moves_with_module():
    crit = WeightedCE([1.0, 2.0, 0.5]).cuda()
    logits = torch.randn(2, 3, 4, 4, device="cuda")
    target = torch.randint(0, 3, (2, 4, 4), device="cuda")
    assert crit(logits, target).device.type == "cuda"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA only")
def test_dice_cpu_and_gpu_agree():
    torch.manual_seed(0)
    logits = torch.randn(2, 4, 6, 6)
    target = torch.randint(0, 4, (2, 6, 6))
    loss_fn = SoftDiceLoss(4)
    cpu = loss_fn(logits, target)
    gpu = loss_fn(logits.cuda(), target.cuda())
    torch.testing.assert_close(gpu.cpu(), cpu, rtol=1e-5, atol=1e-6)
