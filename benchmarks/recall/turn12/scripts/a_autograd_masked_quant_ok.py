"""Correct look-alike: a MADE-style masked linear layer and a fake-quantised
linear layer, each with its own autograd.Function and reset_parameters. Masks
and scales are buffers filled in place, backward builds its tensors with
*_like / new_* from the saved inputs, and the device falls back to the CPU.

Written against "Registered mask as a parameter without grad in CustomizedLinear",
"`backward` does not respect `with torch.device(device)`" (pytorch#172798: a
bare torch.empty in backward lands on the CPU) and "Moving eps to targeted device
to avoid device mismatch issue".
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedMatmul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, mask):
        ctx.save_for_backward(x, weight, mask)
        return x @ (weight * mask).t()

    @staticmethod
    def backward(ctx, grad_out):
        x, weight, mask = ctx.saved_tensors
        grad_x = grad_out @ (weight * mask)
        grad_w = (grad_out.t() @ x) * mask
        return grad_x, grad_w, None


class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, qmax):
        q = x / scale
        ctx.save_for_backward((q >= -qmax - 1) & (q <= qmax))
        return torch.clamp(torch.round(q), -qmax - 1, qmax) * scale

    @staticmethod
    def backward(ctx, grad_out):
        (inside,) = ctx.saved_tensors
        grad_x = torch.where(inside, grad_out, grad_out.new_zeros(()))
        return grad_x, None, None


class MaskedLinear(nn.Module):
    def __init__(self, in_features, out_features, degrees_in, degrees_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        self.register_buffer("mask", torch.ones(out_features, in_features))
        self.register_buffer("deg_in", torch.as_tensor(degrees_in))
        self.register_buffer("deg_out", torch.as_tensor(degrees_out))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        nn.init.zeros_(self.bias)
        self.mask.copy_((self.deg_out[:, None] >= self.deg_in[None, :]).to(self.mask.dtype))

    def forward(self, x):
        return MaskedMatmul.apply(x, self.weight, self.mask) + self.bias


class QuantLinear(nn.Linear):
    def __init__(self, in_features, out_features, bits=4):
        self.qmax = 2 ** (bits - 1) - 1
        super().__init__(in_features, out_features)
        self.register_buffer("w_scale", torch.ones(out_features, 1))

    def reset_parameters(self):
        super().reset_parameters()
        if hasattr(self, "w_scale"):
            with torch.no_grad():
                self.w_scale.copy_(self.weight.abs().amax(1, keepdim=True).clamp(min=1e-8) / self.qmax)

    def forward(self, x):
        return F.linear(x, FakeQuantSTE.apply(self.weight, self.w_scale, self.qmax), self.bias)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    d = 8
    deg_in = list(range(1, d + 1))
    deg_hidden = [(i % (d - 1)) + 1 for i in range(32)]
    model = nn.Sequential(MaskedLinear(d, 32, deg_in, deg_hidden), nn.ReLU(), QuantLinear(32, d, bits=4))
    model[2].reset_parameters()
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(0)
    data = (torch.rand(1024, d, generator=g) > 0.5).float()
    for step in range(100):
        x = data[torch.randint(0, len(data), (64,), generator=g)].to(device)
        loss = F.binary_cross_entropy_with_logits(model(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
    for m in model:
        if hasattr(m, "reset_parameters"):
            m.reset_parameters()
    print("loss", round(loss.item(), 4), "re-initialised on", next(model.parameters()).device)


if __name__ == "__main__":
    main()
