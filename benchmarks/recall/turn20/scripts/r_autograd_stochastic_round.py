"""Quantization-aware training with stochastic rounding (straight-through estimator)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class StochasticRound(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        scaled = x * scale
        noise = torch.rand(scaled.shape)  # expect: DEV006
        return torch.floor(scaled + noise) / scale

    @staticmethod
    def backward(ctx, grad_output):
        # straight-through
        return grad_output, None


class QuantLinear(nn.Linear):
    def __init__(self, *args, bits=4, **kwargs):
        super().__init__(*args, **kwargs)
        self.scale = float(2 ** (bits - 1))

    def forward(self, x):
        w = StochasticRound.apply(self.weight, self.scale)
        return F.linear(x, w, self.bias)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = QuantLinear(20, 64)
        self.l2 = QuantLinear(64, 4)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    ds = TensorDataset(torch.randn(256, 20), torch.randint(0, 4, (256,)))
    loader = DataLoader(ds, batch_size=32, shuffle=True)
    model = Net().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(3):
        total = 0.0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(epoch, total / len(loader))


if __name__ == "__main__":
    main()
