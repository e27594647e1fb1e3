"""Hand-rolled LoRA: every nn.Linear in an already-moved MLP block is swapped for a
wrapper with low-rank A/B factors via setattr on its parent.

Thread: https://github.com/huggingface/peft/issues/81 (Cannot generate w/ do_sample=True on a LoRA
model, device placement); https://github.com/kijai/ComfyUI-FluxTrainer/issues/116 (cpu and cuda:0,
wrapper_CUDA_addmm in a LoRA trainer).
"""
import math

import torch
import torch.nn as nn


class LoRA(nn.Module):
    def __init__(self, base, r=4):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.randn(r, base.in_features) / math.sqrt(base.in_features))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))

    def forward(self, x):
        return self.base(x) + x @ self.A.t() @ self.B.t()


def inject(model, r=4):
    targets = [(n, m) for n, m in model.named_modules() if isinstance(m, nn.Linear)]
    for name, lin in targets:
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child, LoRA(lin, r))  # expect: DEV015
    return model


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    block = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32)).to(device)
    for p in block.parameters():
        p.requires_grad_(False)
    inject(block)
    out = block(torch.randn(2, 10, 32, device=device))
    out.sum().backward()


if __name__ == "__main__":
    main()
