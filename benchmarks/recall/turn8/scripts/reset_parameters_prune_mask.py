"""Magnitude-pruned linear layer: reset_parameters (which nn.Linear's constructor calls) draws the
weights and keeps a pruning mask of the same shape.

Thread: https://github.com/huggingface/pytorch-image-models/pull/2743 (Preserve classifier head
device and dtype on reset: layers rebuilt in reset with CPU defaults); https://github.com/mtkresearch/FishLeg/issues/16.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PrunedLinear(nn.Linear):
    def reset_parameters(self):
        super().reset_parameters()
        self.keep = torch.ones_like(self.weight)  # expect: DEV010

    def prune_(self, frac):
        k = int(frac * self.weight.numel())
        thresh = self.weight.detach().abs().flatten().kthvalue(k).values
        self.keep = (self.weight.detach().abs() > thresh).float()

    def forward(self, x):
        return F.linear(x, self.weight * self.keep, self.bias)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(PrunedLinear(20, 40), nn.ReLU(), PrunedLinear(40, 3)).to(dev)
    print(net(torch.randn(5, 20, device=dev)).shape)
