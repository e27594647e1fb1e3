import torch
import torch.nn as nn


class Actor(nn.Module):
    """Deterministic policy squashed by tanh and rescaled to the action box."""

    def __init__(self, obs_dim, act_dim, low, high, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(obs_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, act_dim), nn.Tanh(),
        )
        self.action_scale = torch.tensor((high - low) / 2.0)  # expect: DEV010
        self.action_bias = torch.tensor((high + low) / 2.0)

    def forward(self, obs):
        return self.net(obs) * self.action_scale + self.action_bias


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1)).squeeze(-1)
