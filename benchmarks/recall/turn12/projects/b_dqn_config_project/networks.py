"""Q-network and the online/target pair used by the trainer."""
import copy

import torch
import torch.nn as nn


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.value = nn.Linear(hidden, 1)
        self.advantage = nn.Linear(hidden, n_actions)

    def forward(self, x):
        h = self.body(x)
        adv = self.advantage(h)
        return self.value(h) + adv - adv.mean(dim=1, keepdim=True)


def build_q_networks(obs_dim, n_actions, hidden=64):
    """Create the online network and a frozen target copy of it."""
    online = QNetwork(obs_dim, n_actions, hidden)
    target = copy.deepcopy(online)  # expect: DEV016
    target.requires_grad_(False)
    target.eval()
    return online, target


@torch.no_grad()
def sync_target(online, target):
    target.load_state_dict(online.state_dict())


def count_parameters(module):
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


def greedy_action(q_values):
    return int(q_values.argmax(dim=1).item())
