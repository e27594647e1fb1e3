"""Soft actor-critic agent with a learned entropy temperature (continuous actions)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianActor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU())
        self.mu = nn.Linear(64, act_dim)
        self.log_std = nn.Linear(64, act_dim)

    def forward(self, obs):
        h = self.body(obs)
        std = self.log_std(h).clamp(-5, 2).exp()
        dist = torch.distributions.Normal(self.mu(h), std)
        u = dist.rsample()
        action = torch.tanh(u)
        log_prob = (dist.log_prob(u) - torch.log(1 - action.pow(2) + 1e-6)).sum(-1)
        return action, log_prob


class SACAgent:
    def __init__(self, obs_dim, act_dim, device):
        self.device = device
        self.actor = GaussianActor(obs_dim, act_dim).to(device)
        self.log_alpha = torch.zeros(1, requires_grad=True)  # expect: DEV006
        self.alpha_opt = torch.optim.Adam([self.log_alpha], lr=3e-4)
        self.target_entropy = -float(act_dim)

    def update_temperature(self, obs):
        _, log_prob = self.actor(obs)
        alpha_loss = -(self.log_alpha * (log_prob + self.target_entropy).detach()).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()
        return self.log_alpha.exp().item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    agent = SACAgent(obs_dim=8, act_dim=2, device=device)
    obs = torch.as_tensor(np.random.randn(32, 8), dtype=torch.float32, device=device)
    for _ in range(3):
        print(agent.update_temperature(obs))
