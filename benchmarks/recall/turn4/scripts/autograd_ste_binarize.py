"""Binarised activations with a straight-through estimator written as an autograd.Function."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinarizeSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.where(x >= 0, torch.ones(x.shape), -torch.ones(x.shape))  # expect: DEV006

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (x.abs() <= 1).to(grad_out.dtype)


class BinaryMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 256)
        self.bn = nn.BatchNorm1d(256)
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x):
        return self.fc2(BinarizeSTE.apply(self.bn(self.fc1(x))))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BinaryMLP().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(10):
        x = torch.rand(64, 784, device=device)
        y = torch.randint(0, 10, (64,), device=device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
