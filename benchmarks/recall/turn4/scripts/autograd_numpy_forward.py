"""A custom autograd.Function that wraps a NumPy implementation of a soft-threshold."""
import numpy as np
import torch
import torch.nn as nn


class SoftThreshold(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lam):
        out = np.sign(x.detach().numpy()) * np.maximum(np.abs(x.detach().numpy()) - lam, 0.0)  # expect: DEV011
        ctx.save_for_backward(x)
        ctx.lam = lam
        return torch.from_numpy(out).to(x.device, x.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (x.abs() > ctx.lam).to(grad_out.dtype), None


class SparseCoder(nn.Module):
    def __init__(self, d_in=32, d_code=64, lam=0.1):
        super().__init__()
        self.enc = nn.Linear(d_in, d_code)
        self.dec = nn.Linear(d_code, d_in)
        self.lam = lam

    def forward(self, x):
        code = SoftThreshold.apply(self.enc(x), self.lam)
        return self.dec(code), code


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SparseCoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(20):
        x = torch.randn(16, 32, device=device)
        recon, code = model(x)
        loss = (recon - x).pow(2).mean() + 1e-3 * code.abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
