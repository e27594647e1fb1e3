"""Correct look-alike: custom autograd Functions that save their inputs, build constants with
new_ones/ones_like, keep Python floats on ctx, and return gradients where the inputs are."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = float(scale)
        ctx.save_for_backward(x)
        return torch.sign(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        window = (x.abs() <= 1).to(g.dtype)
        return g * window * ctx.scale, None


class ClampGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x.new_ones(x.shape[-1]))
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        (w,) = ctx.saved_tensors
        return torch.clamp(g * w, -1.0, 1.0)


class BinNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(10, 32)
        self.l2 = nn.Linear(32, 2)

    def forward(self, x):
        h = ScaledSTE.apply(self.l1(x), 0.5)
        return self.l2(ClampGrad.apply(h))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BinNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(256, 10)
    y = (x.sum(1) > 0).long()
    for _ in range(10):
        xb, yb = x.to(device), y.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
