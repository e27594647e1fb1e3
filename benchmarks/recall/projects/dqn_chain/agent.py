"""DQN agent with a target network."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, x):
        return self.net(x)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, device, gamma=0.9, lr=1e-3):
        self.device, self.gamma, self.n_actions = device, gamma, n_actions
        self.q_net = QNetwork(obs_dim, n_actions).to(device)
        self.target_net = QNetwork(obs_dim, n_actions).to(device)
        self.sync_target()
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=lr)

    def sync_target(self):
        self.target_net.load_state_dict(self.q_net.state_dict())

    def act(self, state, epsilon):
        if random.random() < epsilon:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            s = torch.as_tensor(state, dtype=torch.float32, device=self.device).unsqueeze(0)
            return int(self.q_net(s).argmax(dim=1).item())

    def learn(self, batch):
        states, actions, rewards, next_states, dones = batch
        states, actions = states.to(self.device), actions.to(self.device)
        next_states = next_states.to(self.device)
        q_values = self.q_net(states).gather(1, actions).squeeze(1)
        with torch.no_grad():
            next_q = self.target_net(next_states).max(dim=1).values
        targets = rewards + self.gamma * next_q * (1.0 - dones)
        loss = F.smooth_l1_loss(q_values, targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), q_values.detach()
