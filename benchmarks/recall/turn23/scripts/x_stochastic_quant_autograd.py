"""Quantisation-aware training with a custom autograd.Function: stochastic
rounding in forward, straight-through estimator (clipped) in backward, and a
label-smoothed loss module that accepts targets from anywhere."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class StochasticRound(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, bits):
        qmax = 2 ** (bits - 1) - 1
        scaled = x / scale
        noise = torch.rand(scaled.shape)  # expect: DEV006
        q = torch.floor(scaled + noise).clamp(-qmax - 1, qmax)
        ctx.save_for_backward(scaled)
        ctx.qmax = qmax
        return q * scale

    @staticmethod
    def backward(ctx, grad_out):
        (scaled,) = ctx.saved_tensors
        inside = (scaled.abs() <= ctx.qmax + 1).to(grad_out.dtype)
        return grad_out * inside, None, None


class QuantLinear(nn.Linear):
    def __init__(self, in_f, out_f, bits=4):
        super().__init__(in_f, out_f)
        self.bits = bits

    def forward(self, x):
        scale = self.weight.detach().abs().max() / (2 ** (self.bits - 1) - 1)
        w_q = StochasticRound.apply(self.weight, scale, self.bits)
        return F.linear(x, w_q, self.bias)


class SmoothedCE(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing = smoothing

    def forward(self, logits, target):
        target.to(logits.device)  # expect: DEV005
        n = logits.size(-1)
        log_p = logits.log_softmax(-1)
        nll = -log_p.gather(-1, target.unsqueeze(-1)).squeeze(-1)
        smooth = -log_p.mean(-1)
        return ((1 - self.smoothing) * nll + self.smoothing * smooth).mean()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    x = torch.randn(256, 20)
    y = (x[:, :5].sum(1) > 0).long() + (x[:, 5:10].sum(1) > 1).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)

    model = nn.Sequential(QuantLinear(20, 64), nn.ReLU(), QuantLinear(64, 3)).to(device)
    criterion = SmoothedCE()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(3):
        for xb, yb in loader:
            logits = model(xb.to(device))
            loss = criterion(logits, yb)  # also: DEV004
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
