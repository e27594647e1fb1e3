import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank: int, alpha: float):
        super().__init__()
        self.base = base
        self.lora_down = nn.Linear(base.in_features, rank, bias=False)
        self.lora_up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.normal_(self.lora_down.weight, std=1.0 / rank)
        nn.init.zeros_(self.lora_up.weight)
        self.scaling = alpha / rank

    def forward(self, x):
        return self.base(x) + self.lora_up(self.lora_down(x)) * self.scaling


def apply_lora(model: nn.Module, cfg) -> int:
    count = 0
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if name in cfg.lora_targets and isinstance(child, nn.Linear):
                setattr(parent, name, LoRALinear(child, cfg.lora_rank, cfg.lora_alpha))  # expect: DEV015
                count += 1
    return count


def lora_parameters(model: nn.Module):
    for name, p in model.named_parameters():
        if "lora_" in name:
            yield p
