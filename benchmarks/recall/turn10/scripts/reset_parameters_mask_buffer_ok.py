"""Correct look-alike: the same fully visible sigmoid belief net, with the autoregressive mask
registered as a (non-persistent) buffer in reset_parameters, so model.to(device) moves it; a
NoisyNet-style layer of the same file resamples its noise with torch.randn(..., device=...) from
its own weights' device.

Thread: https://github.com/pytorch/pytorch/issues/29807 (registered buffers move with the module,
plain copies do not).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class AutoregressiveLinear(nn.Linear):
    def reset_parameters(self):
        super().reset_parameters()
        mask = torch.tril(torch.ones(self.out_features, self.in_features), diagonal=-1)
        self.register_buffer("mask", mask, persistent=False)
        with torch.no_grad():
            self.weight.mul_(self.mask)

    def forward(self, x):
        return F.linear(x, self.weight * self.mask, self.bias)


class NoisyBias(nn.Module):
    def __init__(self, d, sigma0=0.1):
        super().__init__()
        self.mu = nn.Parameter(torch.zeros(d))
        self.sigma = nn.Parameter(torch.full((d,), sigma0))

    def forward(self, x):
        if not self.training:
            return x + self.mu
        eps = torch.randn(self.mu.shape, device=self.mu.device)
        return x + self.mu + self.sigma * eps


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    d = 16
    proto = (torch.rand(4, d) < 0.5).float()
    data = proto[torch.randint(0, 4, (1024,))]
    model = nn.Sequential(AutoregressiveLinear(d, d), NoisyBias(d)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(5):
        for (x,) in DataLoader(TensorDataset(data), batch_size=64, shuffle=True):
            x = x.to(device)
            loss = F.binary_cross_entropy_with_logits(model(x), x, reduction="none").sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: nll {loss.item():.3f}")


if __name__ == "__main__":
    main()
