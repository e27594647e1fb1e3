"""Binary 'spiking' classifier: a hard threshold in the forward pass with a
straight-through (boxcar) surrogate gradient in a custom autograd.Function."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class BoxcarSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, threshold, width):
        ctx.save_for_backward(x)
        ctx.threshold, ctx.width = threshold, width
        return (x > threshold).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        window = (x - ctx.threshold).abs() < ctx.width
        grad_in = torch.zeros(grad_out.shape)  # expect: DEV006
        grad_in[window] = grad_out[window] / (2 * ctx.width)
        return grad_in, None, None


class SpikeNet(nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, 1)

    def forward(self, x):
        spikes = BoxcarSTE.apply(self.fc1(x), 0.0, 0.5)
        return self.fc2(spikes).squeeze(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    g = torch.Generator().manual_seed(0)
    x = torch.randn(600, 10, generator=g)
    y = (x[:, 0] * x[:, 1] > 0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=50, shuffle=True)

    model = SpikeNet(10, 32).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            logits = model(xb)
            loss = F.binary_cross_entropy_with_logits(logits, yb.type(torch.FloatTensor))  # expect: DEV021
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
