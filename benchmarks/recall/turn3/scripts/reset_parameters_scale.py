"""A ScaleNorm-style layer whose reset_parameters re-creates its scale; called to re-initialise between runs."""
import math

import torch
import torch.nn as nn


class ScaledLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        nn.init.zeros_(self.bias)
        self.scale = torch.full((self.out_features,), 1.0 / math.sqrt(self.in_features))  # expect: DEV010

    def forward(self, x):
        return nn.functional.linear(x, self.weight, self.bias) * self.scale


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = ScaledLinear(8, 32)
        self.l2 = ScaledLinear(32, 1)

    def forward(self, x):
        return self.l2(torch.tanh(self.l1(x)))


def run(seed, device):
    torch.manual_seed(seed)
    model = Regressor().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(512, 8, device=device)
    y = x[:, :2].prod(1, keepdim=True)
    for _ in range(200):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    print([round(run(s, dev), 4) for s in range(3)])
