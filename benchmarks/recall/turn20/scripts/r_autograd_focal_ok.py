"""Custom autograd.Function (clamped log) plus a focal loss module; alpha kept in a buffer."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SafeLog(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, eps):
        ctx.save_for_backward(x)
        ctx.eps = eps
        return torch.log(x.clamp(min=eps))

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        mask = (x > ctx.eps).to(grad_out.dtype)
        return grad_out * mask / x.clamp(min=ctx.eps), None


class StochasticDrop(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, p):
        keep = (torch.rand(x.shape, device=x.device) > p).to(x.dtype) / (1 - p)
        ctx.save_for_backward(keep)
        return x * keep

    @staticmethod
    def backward(ctx, g):
        (keep,) = ctx.saved_tensors
        return g * keep, None


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0):
        super().__init__()
        self.register_buffer("alpha", torch.as_tensor(alpha, dtype=torch.float32))
        self.gamma = gamma

    def forward(self, logits, target):
        p = F.softmax(logits, dim=-1).gather(1, target[:, None]).squeeze(1)
        logp = SafeLog.apply(p, 1e-6)
        return (-self.alpha[target] * (1 - p) ** self.gamma * logp).mean()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 32)
        self.fc2 = nn.Linear(32, 3)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        if self.training:
            h = StochasticDrop.apply(h, 0.1)
        return self.fc2(h)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = DataLoader(TensorDataset(torch.randn(200, 8), torch.randint(0, 3, (200,))), batch_size=25)
    model = Net().to(device)
    criterion = FocalLoss([0.2, 0.3, 0.5]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())
