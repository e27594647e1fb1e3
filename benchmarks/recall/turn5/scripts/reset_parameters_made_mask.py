"""MADE-style autoregressive density estimator: masked linear layers whose connectivity masks are
rebuilt in reset_parameters (called from __init__ and again to reshuffle the input order)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedLinear(nn.Linear):
    def __init__(self, d_in, d_out, in_deg, out_deg, strict=False):
        self.in_deg, self.out_deg, self.strict = in_deg, out_deg, strict
        super().__init__(d_in, d_out)

    def reset_parameters(self):
        super().reset_parameters()
        if self.strict:
            self.mask = (self.out_deg[:, None] > self.in_deg[None, :]).float()  # expect: DEV010
        else:
            self.mask = (self.out_deg[:, None] >= self.in_deg[None, :]).float()  # expect: DEV010

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


class MADE(nn.Module):
    def __init__(self, d=8, hidden=64):
        super().__init__()
        deg_in = torch.arange(1, d + 1)
        deg_h = torch.randint(1, d, (hidden,))
        self.l1 = MaskedLinear(d, hidden, deg_in, deg_h)
        self.l2 = MaskedLinear(hidden, hidden, deg_h, deg_h)
        self.out = MaskedLinear(hidden, 2 * d, deg_h, deg_in.repeat(2), strict=True)

    def forward(self, x):
        h = F.relu(self.l2(F.relu(self.l1(x))))
        mu, log_s = self.out(h).chunk(2, -1)
        return mu, log_s.clamp(-5, 5)


def nll(model, x):
    mu, log_s = model(x)
    z = (x - mu) * torch.exp(-log_s)
    return (0.5 * z.pow(2) + log_s).sum(-1).mean()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=500)
    args = parser.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    data = torch.randn(10000, 8).cumsum(-1)
    model = MADE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(args.steps):
        x = data[torch.randint(0, len(data), (256,))].to(device)
        loss = nll(model, x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(step, loss.item())
