"""A head attached after the move is moved itself, and LoRA wrappers are created on the device of
the layer they wrap.

Look-alike of finetune_add_module_after_to.py and lora_setattr_after_move.py.
Thread: https://github.com/huggingface/pytorch-image-models/pull/2743
"""
import torch
import torch.nn as nn


class LoRA(nn.Module):
    def __init__(self, base, r=4):
        super().__init__()
        self.base = base
        dev = base.weight.device
        self.A = nn.Parameter(torch.randn(r, base.in_features, device=dev) * 0.01)
        self.B = nn.Parameter(torch.zeros(base.out_features, r, device=dev))

    def forward(self, x):
        return self.base(x) + x @ self.A.t() @ self.B.t()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(nn.Linear(16, 32), nn.ReLU()).to(device)
    net.add_module("head", nn.Linear(32, 5).to(device))
    net[0] = LoRA(net[0])
    x = torch.randn(4, 16, device=device)
    print(net(x).shape)


if __name__ == "__main__":
    main()
