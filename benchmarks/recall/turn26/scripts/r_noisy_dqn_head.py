"""Noisy-net DQN body (factorised Gaussian NoisyLinear) with an auxiliary reward-prediction head added for a second phase."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class NoisyLinear(nn.Module):
    def __init__(self, in_features, out_features, sigma0=0.5):
        super().__init__()
        self.in_features, self.out_features, self.sigma0 = in_features, out_features, sigma0
        self.weight_mu = nn.Parameter(torch.empty(out_features, in_features))
        self.weight_sigma = nn.Parameter(torch.empty(out_features, in_features))
        self.bias_mu = nn.Parameter(torch.empty(out_features))
        self.bias_sigma = nn.Parameter(torch.empty(out_features))
        self.reset_parameters()
        self.reset_noise()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.in_features)
        nn.init.uniform_(self.weight_mu, -bound, bound)
        nn.init.uniform_(self.bias_mu, -bound, bound)
        nn.init.constant_(self.weight_sigma, self.sigma0 / math.sqrt(self.in_features))
        nn.init.constant_(self.bias_sigma, self.sigma0 / math.sqrt(self.out_features))

    def reset_noise(self):
        self.weight_eps = torch.randn(self.out_features, self.in_features)  # expect: DEV010
        self.bias_eps = torch.randn(self.out_features)  # expect: DEV010

    def forward(self, x):
        if self.training:
            w = self.weight_mu + self.weight_sigma * self.weight_eps
            b = self.bias_mu + self.bias_sigma * self.bias_eps
        else:
            w, b = self.weight_mu, self.bias_mu
        return F.linear(x, w, b)


class NoisyQNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.q = NoisyLinear(hidden, n_actions)

    def features(self, obs):
        return self.body(obs)

    def forward(self, obs):
        return self.q(self.features(obs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=50)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    net = NoisyQNet(8, 4).to(device)
    net.reward_head = nn.Linear(64, 1)  # expect: DEV015
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)

    for step in range(args.steps):
        obs = torch.randn(32, 8, device=device)
        actions = torch.randint(0, 4, (32,), device=device)
        rewards = torch.randn(32, device=device)
        net.q.reset_noise()
        q_sa = net(obs).gather(1, actions[:, None]).squeeze(1)
        r_hat = net.reward_head(net.features(obs)).squeeze(1)
        loss = F.mse_loss(q_sa, rewards) + 0.5 * F.mse_loss(r_hat, rewards)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
