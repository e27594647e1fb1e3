"""Straight-through uniform quantizer as a custom autograd.Function with a per-channel
gradient scale (LSQ-style), used inside a small conv net."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class STQuant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bits):
        levels = 2 ** bits - 1
        lo, hi = x.min(), x.max()
        ctx.save_for_backward(x)
        ctx.grad_scale = torch.ones(x.shape[1]).view(1, -1, 1, 1) / (x[0].numel() * levels) ** 0.5  # expect: DEV006
        q = torch.round((x - lo) / (hi - lo + 1e-8) * levels) / levels
        return q * (hi - lo) + lo

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * ctx.grad_scale, None


class QuantNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 8, 3, padding=1)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = STQuant.apply(F.relu(self.c1(x)), 4)
        x = STQuant.apply(F.relu(self.c2(x)), 4)
        return self.fc(x.mean((2, 3)))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = QuantNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(20):
        x = torch.randn(16, 3, 12, 12, device=device)
        y = torch.randint(0, 10, (16,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
