"""Correct look-alike: stochastic-rounding quantizer whose custom autograd.Function draws its noise
with torch.rand_like (same device as the weights) and whose backward clips the straight-through
gradient with a mask computed from the saved tensors; the step size is a 0-dim tensor.

Thread: https://github.com/pytorch/pytorch/issues/24027 (behaviour of autograd between CPU and
CUDA tensors).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class StochasticRound(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, step, levels):
        ctx.save_for_backward(w, step)
        ctx.levels = levels
        q = torch.floor(w / step + torch.rand_like(w))
        return q.clamp(-levels - 1, levels) * step

    @staticmethod
    def backward(ctx, grad_out):
        w, step = ctx.saved_tensors
        inside = (w / step).abs() <= ctx.levels + 1
        return grad_out * inside.to(grad_out.dtype), None, None


class QuantLinear(nn.Linear):
    def __init__(self, in_features, out_features, bits=4):
        super().__init__(in_features, out_features)
        self.levels = 2 ** (bits - 1) - 1

    def forward(self, x):
        step = self.weight.detach().abs().amax() / self.levels
        return F.linear(x, StochasticRound.apply(self.weight, step, self.levels), self.bias)


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
