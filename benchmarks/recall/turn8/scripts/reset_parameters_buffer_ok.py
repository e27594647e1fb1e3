"""Pruned linear layer whose mask is a buffer registered in reset_parameters and updated in place.

Look-alike of reset_parameters_prune_mask.py. Thread: https://github.com/huggingface/pytorch-image-models/pull/2743
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PrunedLinear(nn.Linear):
    def reset_parameters(self):
        super().reset_parameters()
        self.register_buffer("keep", torch.ones_like(self.weight))

    def prune_(self, frac):
        k = int(frac * self.weight.numel())
        thresh = self.weight.detach().abs().flatten().kthvalue(k).values
        self.keep.copy_((self.weight.detach().abs() > thresh).float())

    def forward(self, x):
        return F.linear(x, self.weight * self.keep, self.bias)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(PrunedLinear(20, 40), nn.ReLU(), PrunedLinear(40, 3)).to(dev)
    net[0].prune_(0.5)
    print(net(torch.randn(5, 20, device=dev)).shape)
