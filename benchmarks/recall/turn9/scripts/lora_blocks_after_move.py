"""Hand-rolled LoRA on a small transformer encoder: the query and value projections of every block
are wrapped after the pretrained backbone was put on the GPU.

Thread: https://github.com/ogchen/nanofold/pull/4 (fix model and tensors on incorrect device when
using cuda); in the spirit of https://github.com/Lightning-AI/pytorch-lightning/issues/3738 (a
submodule's tensors left on the CPU while the input is on cuda:0).
"""
import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.randn(r, base.in_features) / math.sqrt(base.in_features))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.A.t() @ self.B.t()) * self.scale


class Block(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.ff = nn.Linear(d, d)

    def forward(self, x):
        att = torch.softmax(self.q(x) @ self.k(x).transpose(1, 2) / math.sqrt(x.size(-1)), -1)
        return x + self.ff(att @ self.v(x))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    backbone = nn.Sequential(*[Block() for _ in range(3)]).to(device)
    for p in backbone.parameters():
        p.requires_grad_(False)
    for blk in backbone:
        blk.q = LoRALinear(blk.q)  # expect: DEV015
        blk.v = LoRALinear(blk.v)  # also: DEV015
    head = nn.Linear(32, 2).to(device)
    params = [p for p in backbone.parameters() if p.requires_grad] + list(head.parameters())
    opt = torch.optim.AdamW(params, lr=1e-3)
    x, y = torch.randn(8, 10, 32, device=device), torch.randint(0, 2, (8,), device=device)
    loss = nn.functional.cross_entropy(head(backbone(x).mean(1)), y)
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
