import pytest
import torch
import torch.nn as nn

from l_lora_rope_ckpt_ok import LM, LoRA, add_lora

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def test_lora_starts_as_identity_update():
    base = nn.Linear(16, 8)
    layer = LoRA(base, r=2)
    x = torch.randn(3, 16)
    assert torch.allclose(layer(x), base(x))


def test_only_adapters_are_trainable():
    model = LM(vocab=11)
    model.requires_grad_(False)
    add_lora(model, r=2)
    names = [n for n, p in model.named_parameters() if p.requires_grad]
    assert names and all(n.endswith(".A") or n.endswith(".B") for n in names)


@requires_cuda
def test_adapters_follow_base_device_and_dtype():
    base = nn.Linear(16, 8).to("cuda", torch.bfloat16)
    layer = LoRA(base, r=4)
    assert layer.A.device == base.weight.device and layer.A.dtype == torch.bfloat16
    out = layer(torch.randn(2, 16, device="cuda", dtype=torch.bfloat16))
    assert out.shape == (2, 8)


@pytest.mark.parametrize("device", [
    "cpu",
    pytest.param("cuda", marks=requires_cuda),
])
def test_lm_with_adapters_backward(device):
    model = LM(vocab=11).to(device)
    model.requires_grad_(False)
    add_lora(model, r=2)
    idx = torch.randint(0, 11, (2, 9), device=device)
    model(idx).logsumexp(-1).mean().backward()
    assert all(p.grad is not None for p in model.parameters() if p.requires_grad)
