"""LoRA fine-tuning of a tiny attention classifier, adapters injected before the move (correct look-alike).

Written from "fix: create LoRA parameters on base weight device instead of CPU"
(ViperEkura/AstrAI#19), "LORA error when running train_text_to_image_lora.py"
(huggingface/diffusers#5897, the fix being to add LoRA first and then send the
model to the GPU) and "Class weights need to be sent to the device"
(sacdallago/biotrainer#67): adapters are injected while the model is still on
the CPU, a late adapter is created on the base weight's device, and the
multi-label pos_weight is built on the device.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)
        dev, dt = base.weight.device, base.weight.dtype
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features, device=dev, dtype=dt) / math.sqrt(r))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, device=dev, dtype=dt))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


def inject_lora(model, targets=("q_proj", "v_proj"), r=4):
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name in targets and isinstance(child, nn.Linear):
                setattr(module, name, LoRALinear(child, r=r))
    return model


class TagClassifier(nn.Module):
    def __init__(self, dim=32, num_tags=5):
        super().__init__()
        self.q_proj, self.k_proj, self.v_proj = (nn.Linear(dim, dim) for _ in range(3))
        self.out = nn.Linear(dim, num_tags)

    def forward(self, x):
        att = F.softmax(self.q_proj(x) @ self.k_proj(x).transpose(1, 2) / math.sqrt(x.size(-1)), dim=-1)
        return self.out((att @ self.v_proj(x)).mean(dim=1))


def make_batch(n, device, g):
    x = torch.randn(n, 6, 32, generator=g)
    tags = (x[:, :, :5].mean(dim=1) > 0.25).float()
    return x.to(device), tags.to(device)


def main(steps=200):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = inject_lora(TagClassifier())
    for p in model.out.parameters():
        p.requires_grad_(False)
    model.to(device)
    model.out = LoRALinear(model.out, r=2)  # created from a moved layer: lands on its device

    g = torch.Generator().manual_seed(0)
    _, y_probe = make_batch(2000, "cpu", g)
    pos = y_probe.sum(dim=0)
    pos_weight = ((len(y_probe) - pos) / pos.clamp(min=1)).to(device)
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=5e-3)

    for step in range(steps):
        x, y = make_batch(64, device, g)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f}")
    n_lora = sum(p.numel() for n, p in model.named_parameters() if "lora_" in n)
    print(f"trainable LoRA parameters: {n_lora}")


if __name__ == "__main__":
    main()
