"""Correct look-alike: a masked linear layer whose reset_parameters fills a registered buffer
in place, so the mask moves with the module."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedLinear(nn.Linear):
    def __init__(self, d_in, d_out, density=0.5):
        self.density = density
        super().__init__(d_in, d_out)

    def reset_parameters(self):
        super().reset_parameters()
        if not hasattr(self, "mask"):
            self.register_buffer("mask", torch.ones_like(self.weight))
        self.mask.copy_((torch.rand_like(self.weight) < self.density).float())

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(MaskedLinear(12, 24), nn.Tanh(), MaskedLinear(24, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=math.e / 100)
    for _ in range(25):
        x = torch.randn(32, 12).to(device)
        loss = F.mse_loss(model(x), x[:, :1])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
