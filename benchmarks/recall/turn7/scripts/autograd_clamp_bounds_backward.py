"""Per-channel clipped activation with a straight-through gradient inside the bounds, written
as a custom autograd Function; the bounds are rebuilt in backward from Python lists."""
import torch
import torch.nn as nn


class ChannelClip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        out = x.clone()
        for c, (a, b) in enumerate(zip(lo, hi)):
            out[:, c] = out[:, c].clamp(a, b)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        lo = torch.tensor(ctx.lo).view(1, -1)  # expect: DEV006
        hi = torch.tensor(ctx.hi).view(1, -1)  # also: DEV006
        inside = (x >= lo) & (x <= hi)
        return grad_out * inside, None, None


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 3)
        self.fc2 = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc2(ChannelClip.apply(self.fc1(x), [-1.0, -0.5, 0.0], [1.0, 0.5, 2.0]))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = Net().to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(20):
        x = torch.randn(32, 6, device=device)
        loss = (net(x).squeeze(1) - x.sum(1)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
