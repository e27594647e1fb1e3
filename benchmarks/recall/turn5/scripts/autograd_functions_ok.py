"""Custom autograd Functions written device-agnostically: a gradient reversal layer keeping its
strength as a Python float, and a straight-through quantiser building its constants with
*_like / new_tensor."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return -ctx.lambd * grad_output, None


class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, levels):
        scale = x.new_tensor(float(levels - 1))
        ctx.save_for_backward(x)
        return torch.round(x.clamp(0, 1) * scale) / scale

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        inside = (x >= 0) & (x <= 1)
        return grad_output * torch.where(inside, torch.ones_like(x), torch.zeros_like(x)), None


class QuantNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(16, 8)
        self.dec = nn.Linear(8, 16)
        self.dom = nn.Linear(8, 1)

    def forward(self, x):
        z = torch.sigmoid(self.enc(x))
        zq = RoundSTE.apply(z, 16)
        return self.dec(zq), self.dom(GradReverse.apply(z, 0.5)).squeeze(-1)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = QuantNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(50):
        x = torch.randn(64, 16, device=device)
        d = torch.randint(0, 2, (64,), device=device).float()
        rec, dom = model(x)
        loss = F.mse_loss(rec, x) + F.binary_cross_entropy_with_logits(dom, d)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
