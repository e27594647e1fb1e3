"""Tests for merging a trained LoRA adapter back into its base Linear layer."""
import math

import pytest
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        self.scale = alpha / rank
        self.lora_A = nn.Parameter(torch.randn(rank, base.in_features) / math.sqrt(base.in_features))
        self.lora_B = nn.Parameter(torch.randn(base.out_features, rank) * 0.01)

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale

    @torch.no_grad()
    def merged(self) -> nn.Linear:
        out = nn.Linear(self.base.in_features, self.base.out_features, bias=self.base.bias is not None)
        out = out.to(self.base.weight.device, self.base.weight.dtype)
        out.weight.copy_(self.base.weight + self.scale * self.lora_B @ self.lora_A)
        if self.base.bias is not None:
            out.bias.copy_(self.base.bias)
        return out


@pytest.fixture
def layer():
    torch.manual_seed(0)
    return LoRALinear(nn.Linear(16, 8), rank=4)


def test_merge_matches_adapter_cpu(layer):
    x = torch.randn(5, 16)
    torch.testing.assert_close(layer.merged()(x), layer(x), rtol=1e-5, atol=1e-5)


def test_merge_keeps_bias(layer):
    assert torch.equal(layer.merged().bias, layer.base.bias)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_merge_matches_adapter_gpu(layer, dtype):
    layer = layer.to("cuda", dtype)  # expect: DEV022
    x = torch.randn(5, 16, device="cuda", dtype=dtype)
    tol = 1e-2 if dtype == torch.float16 else 1e-5
    torch.testing.assert_close(layer.merged()(x), layer(x), rtol=tol, atol=tol)


def test_zero_B_is_identity():
    base = nn.Linear(6, 6)
    lora = LoRALinear(base, rank=2)
    nn.init.zeros_(lora.lora_B)
    x = torch.randn(3, 6)
    torch.testing.assert_close(lora(x), base(x))
