"""Custom autograd Functions done right: a gradient-reversal layer with a Python float on ctx,
a clipped activation whose bounds are made on the input's device."""
import torch
import torch.nn as nn


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lam):
        ctx.lam = float(lam)
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_out):
        return -ctx.lam * grad_out, None


class ChannelClip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        lo_t = torch.tensor(lo, device=x.device).view(1, -1)
        hi_t = torch.tensor(hi, device=x.device).view(1, -1)
        ctx.save_for_backward(x, lo_t, hi_t)
        return torch.maximum(torch.minimum(x, hi_t), lo_t)

    @staticmethod
    def backward(ctx, grad_out):
        x, lo_t, hi_t = ctx.saved_tensors
        return grad_out * ((x >= lo_t) & (x <= hi_t)), None, None


class DANN(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat = nn.Linear(8, 4)
        self.cls = nn.Linear(4, 2)
        self.dom = nn.Linear(4, 2)

    def forward(self, x, lam=0.3):
        f = ChannelClip.apply(self.feat(x), [-1.0] * 4, [1.0] * 4)
        return self.cls(f), self.dom(GradReverse.apply(f, lam))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = DANN().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(10):
        x = torch.randn(16, 8, device=device)
        y = torch.randint(0, 2, (16,), device=device)
        d = torch.randint(0, 2, (16,), device=device)
        c, dm = model(x)
        loss = nn.functional.cross_entropy(c, y) + nn.functional.cross_entropy(dm, d)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
