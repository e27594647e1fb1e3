"""Custom autograd.Function for stochastic rounding with a straight-through
backward, plus a focal loss module; every tensor they build follows the
device of its input."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class StochasticRound(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, bits):
        qmax = 2 ** (bits - 1) - 1
        scaled = x / scale
        q = torch.floor(scaled + torch.rand_like(scaled)).clamp(-qmax - 1, qmax)
        ctx.save_for_backward(scaled)
        ctx.qmax = qmax
        return q * scale

    @staticmethod
    def backward(ctx, grad_out):
        (scaled,) = ctx.saved_tensors
        keep = torch.ones(scaled.shape, dtype=grad_out.dtype, device=grad_out.device)
        keep[scaled.abs() > ctx.qmax + 1] = 0
        return grad_out * keep, None, None


class QuantLinear(nn.Linear):
    def forward(self, x):
        scale = self.weight.detach().abs().max() / 7
        return F.linear(x, StochasticRound.apply(self.weight, scale, 4), self.bias)


class FocalLoss(nn.Module):
    def __init__(self, alpha, gamma=2.0):
        super().__init__()
        self.register_buffer("alpha", torch.as_tensor(alpha, dtype=torch.float32))
        self.gamma = gamma

    def forward(self, logits, target):
        target = target.to(logits.device)
        log_p = logits.log_softmax(-1).gather(-1, target[:, None]).squeeze(-1)
        p = log_p.exp()
        return (-self.alpha[target] * (1 - p) ** self.gamma * log_p).mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    x = torch.randn(256, 20)
    y = (x[:, :5].sum(1) > 0).long() + (x[:, 5:10].sum(1) > 1).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = nn.Sequential(QuantLinear(20, 64), nn.ReLU(), QuantLinear(64, 3)).to(device)
    criterion = FocalLoss([0.25, 0.5, 1.0]).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(3):
        for xb, yb in loader:
            loss = criterion(model(xb.to(device)), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} focal {loss.item():.4f}")


if __name__ == "__main__":
    main()
