"""DQN agent: online and target Q-networks, epsilon-greedy acting, a TD update."""
import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, n_actions))

    def forward(self, x):
        return self.net(x)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, device, lr=1e-3, gamma=0.99):
        self.device = device
        self.n_actions = n_actions
        self.gamma = gamma
        self.q = QNetwork(obs_dim, n_actions)
        self.target_q = copy.deepcopy(self.q)  # expect: DEV016
        self.q.to(device)
        self.optimizer = torch.optim.Adam(self.q.parameters(), lr=lr)

    def act(self, obs, epsilon):
        if random.random() < epsilon:
            return torch.tensor(random.randrange(self.n_actions))
        with torch.no_grad():
            return self.q(torch.as_tensor(obs, device=self.device).unsqueeze(0)).argmax(-1)[0]

    def update(self, batch):
        obs, actions, rewards, next_obs, dones = batch
        q_sa = self.q(obs).gather(1, actions).squeeze(1)
        with torch.no_grad():
            target = rewards + self.gamma * (1 - dones) * self.target_q(next_obs).max(1).values
        loss = F.smooth_l1_loss(q_sa, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def sync(self):
        self.target_q.load_state_dict(self.q.state_dict())
