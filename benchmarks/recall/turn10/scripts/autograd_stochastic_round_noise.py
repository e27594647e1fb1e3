"""Quantization-aware training with stochastic rounding: a custom autograd.Function rounds the
weights to a grid with uniform noise in forward and passes the gradient straight through.

Thread: https://github.com/pytorch/pytorch/issues/172798 (a tensor created inside a custom
autograd.Function without an explicit device is allocated on the CPU).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class StochasticRound(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, step):
        noise = torch.rand(w.shape)  # expect: DEV006
        return torch.floor(w / step + noise) * step

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None


class QuantLinear(nn.Linear):
    def __init__(self, in_features, out_features, bits=4):
        super().__init__(in_features, out_features)
        self.levels = 2 ** (bits - 1) - 1

    def forward(self, x):
        step = self.weight.detach().abs().amax() / self.levels
        return F.linear(x, StochasticRound.apply(self.weight, step), self.bias)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(QuantLinear(20, 64), nn.ReLU(), QuantLinear(64, 4)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.randn(512, 20), torch.randint(0, 4, (512,)))
    for epoch in range(3):
        for x, y in DataLoader(data, batch_size=64, shuffle=True):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
