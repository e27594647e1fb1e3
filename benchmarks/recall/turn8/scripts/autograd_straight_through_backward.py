"""Binarized activations trained with a straight-through estimator written as a custom
autograd.Function; backward zeroes gradients outside the clipping range.

Thread: https://github.com/pytorch/pytorch/issues/172798 (`backward` does not respect
`with torch.device(device)`: a tensor made in backward without a device lands on the CPU);
https://github.com/mtkresearch/FishLeg/issues/16 (grad and mask on different devices in a hook).
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
        window = torch.ones(x.shape)  # expect: DEV006
        window[x.abs() > 1] = 0
        return grad_out * window


class BinNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(16, 32), nn.Linear(32, 2)

    def forward(self, x):
        return self.fc2(SignSTE.apply(self.fc1(x)))


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = BinNet().to(dev)
    x, y = torch.randn(64, 16, device=dev), torch.randint(0, 2, (64,), device=dev)
    nn.functional.cross_entropy(net(x), y).backward()
    print(net.fc1.weight.grad.abs().sum().item())
