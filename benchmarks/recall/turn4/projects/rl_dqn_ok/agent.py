import copy
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, x):
        return self.net(x)


class DQNAgent:
    def __init__(self, cfg):
        self.cfg = cfg
        self.q = QNetwork(cfg.obs_dim, cfg.n_actions).to(cfg.device)
        self.target = copy.deepcopy(self.q)
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)

    def act(self, obs, epsilon):
        if random.random() < epsilon:
            return random.randrange(self.cfg.n_actions)
        with torch.no_grad():
            q = self.q(torch.as_tensor(obs, dtype=torch.float32, device=self.cfg.device).unsqueeze(0))
        return int(q.argmax(1).item())

    def learn(self, batch):
        obs, actions, rewards, next_obs, dones = batch
        q = self.q(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = rewards + self.cfg.gamma * (1 - dones) * self.target(next_obs).max(1).values
        loss = F.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def sync(self):
        self.target.load_state_dict(self.q.state_dict())
