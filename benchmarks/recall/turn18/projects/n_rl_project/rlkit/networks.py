import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class NoisyLinear(nn.Module):
    """Factorised Gaussian noisy layer (Fortunato et al.)."""

    def __init__(self, in_features, out_features, sigma0=0.5):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight_mu = nn.Parameter(torch.empty(out_features, in_features))
        self.weight_sigma = nn.Parameter(torch.empty(out_features, in_features))
        self.bias_mu = nn.Parameter(torch.empty(out_features))
        self.bias_sigma = nn.Parameter(torch.empty(out_features))
        self.sigma0 = sigma0
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.in_features)
        nn.init.uniform_(self.weight_mu, -bound, bound)
        nn.init.uniform_(self.bias_mu, -bound, bound)
        nn.init.constant_(self.weight_sigma, self.sigma0 * bound)
        nn.init.constant_(self.bias_sigma, self.sigma0 * bound)

    @staticmethod
    def _f(x):
        return x.sign() * x.abs().sqrt()

    def forward(self, x):
        if not self.training:
            return F.linear(x, self.weight_mu, self.bias_mu)
        eps_in = self._f(torch.randn(self.in_features))  # expect: DEV006
        eps_out = self._f(torch.randn(self.out_features, device=x.device))
        weight = self.weight_mu + self.weight_sigma * torch.outer(eps_out, eps_in)
        bias = self.bias_mu + self.bias_sigma * eps_out
        return F.linear(x, weight, bias)


class NoisyQNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.value = NoisyLinear(hidden, 1)
        self.adv = NoisyLinear(hidden, n_actions)

    def forward(self, obs):
        h = self.body(obs)
        v, a = self.value(h), self.adv(h)
        return v + a - a.mean(dim=1, keepdim=True)
