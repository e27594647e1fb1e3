"""DQN on a toy grid env, replay buffer keeps numpy arrays."""
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ToyGridEnv:
    """4-dim observation, 3 actions, episodes of 20 steps."""

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
        self.t = 0

    def reset(self):
        self.t = 0
        return self.rng.normal(size=4).astype(np.float32)

    def step(self, action):
        self.t += 1
        obs = self.rng.normal(size=4).astype(np.float32)
        reward = float(action == 1) - 0.1
        done = self.t >= 20
        return obs, reward, done


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.ptr, self.size = capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i] = o, a, r
        self.next_obs[i], self.dones[i] = o2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = np.random.randint(0, self.size, size=batch_size)
        return (self.obs[idx], self.actions[idx], self.rewards[idx],
                self.next_obs[idx], self.dones[idx])


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, n_actions)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.out(x)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, device, gamma=0.99, lr=1e-3):
        self.device = device
        self.n_actions = n_actions
        self.gamma = gamma
        self.q = QNet(obs_dim, n_actions)
        self.q_target = copy.deepcopy(self.q)  # expect: DEV016
        self.q.to(device)
        self.optim = torch.optim.Adam(self.q.parameters(), lr=lr)

    @torch.no_grad()
    def act(self, obs, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        obs_t = torch.as_tensor(obs, device=self.device).unsqueeze(0)
        return int(self.q(obs_t).argmax(dim=1).item())

    def update(self, batch):
        obs, actions, rewards, next_obs, dones = batch
        obs = torch.from_numpy(obs).to(self.device)
        next_obs = torch.from_numpy(next_obs).to(self.device)
        actions = torch.from_numpy(actions).to(self.device)
        rewards = torch.as_tensor(rewards)  # expect: DEV006
        dones = torch.as_tensor(dones, device=self.device)

        q_sa = self.q(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_q = self.q_target(next_obs).max(dim=1).values
            target = rewards + self.gamma * (1.0 - dones) * next_q
        loss = F.smooth_l1_loss(q_sa, target)
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return loss.item()

    def sync_target(self):
        self.q_target.load_state_dict(self.q.state_dict())


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = ToyGridEnv()
    buf = ReplayBuffer(1000, 4)
    agent = DQNAgent(4, 3, device)
    obs = env.reset()
    eps = 1.0
    for step in range(300):
        a = agent.act(obs, eps)
        next_obs, r, done = env.step(a)
        buf.add(obs, a, r, next_obs, float(done))
        obs = env.reset() if done else next_obs
        eps = max(0.05, eps * 0.99)
        if buf.size >= 64:
            loss = agent.update(buf.sample(32))
            if step % 50 == 0:
                print(f"step {step} loss {loss:.4f}")
        if step % 100 == 0:
            agent.sync_target()


if __name__ == "__main__":
    main()
