"""pytest tests for a LoRA linear layer and an EMA helper (CPU and GPU paths)."""
import copy

import pytest
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r=2, alpha=4):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.randn(r, base.in_features) * 0.01)
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + x @ self.A.T @ self.B.T * self.scale


class EMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = copy.deepcopy(model).eval()

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.lerp_(p, 1 - self.decay)


def test_lora_starts_as_identity_cpu():
    base = nn.Linear(8, 4)
    layer = LoRALinear(base)
    x = torch.randn(3, 8)
    torch.testing.assert_close(layer(x), base(x))


def test_lora_backward_reaches_adapters_on_gpu():
    layer = LoRALinear(nn.Linear(8, 4)).cuda()  # expect: DEV022
    layer.base.requires_grad_(False)
    layer(torch.randn(5, 8, device="cuda")).sum().backward()
    assert layer.B.grad is not None and layer.base.weight.grad is None


@pytest.mark.parametrize("device", ["cpu", "cuda"])  # expect: DEV022
def test_ema_moves_toward_model(device):
    model = nn.Linear(4, 4).to(device)
    ema = EMA(model, decay=0.5)
    with torch.no_grad():
        model.weight.add_(1.0)
    before = (ema.shadow.weight - model.weight).abs().sum()
    ema.update(model)
    after = (ema.shadow.weight - model.weight).abs().sum()
    assert after < before


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_ema_shadow_follows_model_device():
    model = nn.Linear(4, 4).cuda()
    assert EMA(model).shadow.weight.is_cuda
