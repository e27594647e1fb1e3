"""Straight-through estimator whose backward builds its window from the saved input, so it lives
wherever the input does.

Look-alike of autograd_straight_through_backward.py. Thread: https://github.com/pytorch/pytorch/issues/172798
"""
import torch
import torch.nn as nn


class SignSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sign(x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        window = torch.ones_like(x)
        window[x.abs() > 1] = 0
        return grad_out * window


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    fc = nn.Linear(16, 4).to(dev)
    x = torch.randn(8, 16, device=dev)
    SignSTE.apply(fc(x)).pow(2).sum().backward()
    print(fc.weight.grad.shape)
