"""Autoencoder with a quantized bottleneck trained through a clipped straight-through estimator."""
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class ClippedRound(torch.autograd.Function):
    """Round to the integer grid in forward; pass gradients only inside [lo, hi] in backward."""

    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi).round()

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        inside = ((x >= ctx.lo) & (x <= ctx.hi)).to(grad_out.dtype)
        return grad_out * inside, None, None


class QuantAE(nn.Module):
    def __init__(self, d_in=32, d_code=6, levels=4):
        super().__init__()
        self.levels = levels
        self.enc = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, d_code))
        self.dec = nn.Sequential(nn.Linear(d_code, 64), nn.ReLU(), nn.Linear(64, d_in))

    def forward(self, x):
        z = self.enc(x) * self.levels
        zq = ClippedRound.apply(z, -self.levels, self.levels) / self.levels
        return self.dec(zq), zq


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--no-cuda", action="store_true")
    args = ap.parse_args()
    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if use_cuda else "cpu")

    torch.manual_seed(0)
    basis = torch.randn(6, 32)
    data = torch.randn(1024, 6) @ basis
    loader = DataLoader(TensorDataset(data), batch_size=64, shuffle=True)

    model = QuantAE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        total = 0.0
        for (x,) in loader:
            x = x.to(device)
            recon, zq = model(x)
            loss = F.mse_loss(recon, x)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * x.size(0)
        print(f"epoch {epoch}: mse {total / len(data):.4f}")

    with torch.no_grad():
        _, codes = model(data[:256].to(device))
    print("distinct code values:", torch.unique(codes).numel())


if __name__ == "__main__":
    main()
