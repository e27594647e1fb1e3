"""Inject LoRA adapters into the linear layers of an MLP classifier that is already on the device."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.lora_a = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_a, a=math.sqrt(5))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_a.T @ self.lora_b.T) * self.scale


def add_lora(model, r=4):
    for name, child in list(model.named_children()):
        if isinstance(child, nn.Linear):
            child.weight.requires_grad_(False)
            setattr(model, name, LoRALinear(child, r=r))  # expect: DEV015
        else:
            add_lora(child, r)
    return model


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
    model.to(device)
    add_lora(model)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    for _ in range(5):
        x = torch.randn(16, 32, device=device)
        y = torch.randint(0, 4, (16,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
