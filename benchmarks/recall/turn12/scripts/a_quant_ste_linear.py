"""Quantisation-aware training of a small MLP: a custom autograd.Function for
round-with-clipped-straight-through, and a QuantLinear layer whose per-channel
scale is (re)computed in reset_parameters.

Written from "torch/ao/quantization/utils.py: Moving eps to targeted device to
avoid device mismatch issue", "Add cuda and mps functionality for fixedpoint in
quantized grads" (min/max made on the default device inside the gradient code),
"Registered mask as a parameter without grad in CustomizedLinear" and "RuntimeError:
CUDA error: invalid device ordinal" for a device string naming the second GPU.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RoundClipSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, qmax):
        ctx.save_for_backward(x, scale)
        ctx.qmax = qmax
        return torch.clamp(torch.round(x / scale), -qmax - 1, qmax) * scale

    @staticmethod
    def backward(ctx, grad_out):
        x, scale = ctx.saved_tensors
        q = x / scale
        pass_through = torch.ones(x.shape)  # expect: DEV006
        pass_through[(q < -ctx.qmax - 1) | (q > ctx.qmax)] = 0.0
        return grad_out * pass_through, None, None


class QuantLinear(nn.Module):
    def __init__(self, in_features, out_features, bits=4):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        self.qmax = 2 ** (bits - 1) - 1
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        bound = 1.0 / math.sqrt(self.weight.size(1))
        nn.init.uniform_(self.bias, -bound, bound)
        with torch.no_grad():
            self.w_scale = self.weight.abs().amax(dim=1, keepdim=True).clamp(min=1e-8) / self.qmax  # expect: DEV010

    def forward(self, x):
        w_q = RoundClipSTE.apply(self.weight, self.w_scale, self.qmax)
        return F.linear(x, w_q, self.bias)


class QMLP(nn.Module):
    def __init__(self, bits=4):
        super().__init__()
        self.fc1 = QuantLinear(20, 64, bits)
        self.fc2 = QuantLinear(64, 3, bits)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def main():
    device = torch.device("cuda:1") if torch.cuda.is_available() else torch.device("cpu")  # expect: DEV018
    g = torch.Generator().manual_seed(0)
    x = torch.randn(512, 20, generator=g)
    y = (x[:, :3].argmax(dim=1)).long()
    model = QMLP(bits=4).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(5):
        perm = torch.randperm(len(x), generator=g)
        for i in range(0, len(x), 64):
            idx = perm[i:i + 64]
            xb, yb = x[idx].to(device), y[idx].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            acc = (model(x.to(device)).argmax(1) == y.to(device)).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {acc:.3f}")


if __name__ == "__main__":
    main()
