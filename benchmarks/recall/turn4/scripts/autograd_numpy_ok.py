"""Custom autograd.Functions done right: NumPy work on a .cpu() copy, constants made with *_like."""
import numpy as np
import torch
import torch.nn as nn


class SoftThreshold(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lam):
        xn = x.detach().cpu().numpy()
        out = np.sign(xn) * np.maximum(np.abs(xn) - lam, 0.0)
        ctx.save_for_backward(x)
        ctx.lam = lam
        return torch.from_numpy(out).to(x.device, x.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (x.abs() > ctx.lam).to(grad_out.dtype), None


class BinarizeSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.where(x >= 0, torch.ones_like(x), -torch.ones_like(x))

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (x.abs() <= 1).to(grad_out.dtype)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(32, 64)
        self.dec = nn.Linear(64, 32)

    def forward(self, x):
        return self.dec(BinarizeSTE.apply(SoftThreshold.apply(self.enc(x), 0.1)))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Net().to(device)
    x = torch.randn(8, 32, device=device)
    loss = (model(x) - x).pow(2).mean()
    loss.backward()
    print(loss.item())
