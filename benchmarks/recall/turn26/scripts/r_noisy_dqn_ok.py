"""NoisyLinear with its noise in buffers refilled in place; the auxiliary head is built with the network, before the move."""
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
        self.register_buffer("weight_eps", torch.zeros(out_features, in_features))
        self.register_buffer("bias_eps", torch.zeros(out_features))
        self.reset_parameters()
        self.reset_noise()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.in_features)
        nn.init.uniform_(self.weight_mu, -bound, bound)
        nn.init.uniform_(self.bias_mu, -bound, bound)
        nn.init.constant_(self.weight_sigma, self.sigma0 / math.sqrt(self.in_features))
        nn.init.constant_(self.bias_sigma, self.sigma0 / math.sqrt(self.out_features))

    @staticmethod
    def _scaled(x):
        return x.sign() * x.abs().sqrt()

    @torch.no_grad()
    def reset_noise(self):
        eps_in = self._scaled(torch.randn(self.in_features, device=self.weight_mu.device))
        eps_out = self._scaled(torch.randn(self.out_features, device=self.weight_mu.device))
        self.weight_eps.copy_(torch.outer(eps_out, eps_in))
        self.bias_eps.copy_(eps_out)

    def forward(self, x):
        if self.training:
            return F.linear(x, self.weight_mu + self.weight_sigma * self.weight_eps, self.bias_mu + self.bias_sigma * self.bias_eps)
        return F.linear(x, self.weight_mu, self.bias_mu)


class NoisyQNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64, aux_reward=False):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.q = NoisyLinear(hidden, n_actions)
        self.reward_head = nn.Linear(hidden, 1) if aux_reward else None

    def features(self, obs):
        return self.body(obs)

    def forward(self, obs):
        return self.q(self.features(obs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=50)
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    net = NoisyQNet(8, 4, aux_reward=True).to(device)
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
