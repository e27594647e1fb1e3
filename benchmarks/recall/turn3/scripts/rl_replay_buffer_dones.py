"""DQN on LunarLander with a numpy ring-buffer replay memory."""
import random

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.idx, self.full = capacity, 0, False

    def add(self, o, a, r, o2, d):
        self.obs[self.idx], self.actions[self.idx], self.rewards[self.idx] = o, a, r
        self.next_obs[self.idx], self.dones[self.idx] = o2, d
        self.idx = (self.idx + 1) % self.capacity
        self.full = self.full or self.idx == 0

    def sample(self, batch_size, device):
        hi = self.capacity if self.full else self.idx
        ix = np.random.randint(0, hi, size=batch_size)
        return (torch.as_tensor(self.obs[ix], device=device),
                torch.as_tensor(self.actions[ix], device=device),
                torch.as_tensor(self.rewards[ix]),  # expect: DEV006
                torch.as_tensor(self.next_obs[ix], device=device),
                torch.as_tensor(self.dones[ix], device=device))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = gym.make("LunarLander-v3")
    q = nn.Sequential(nn.Linear(8, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 4)).to(device)
    target = nn.Sequential(nn.Linear(8, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 4)).to(device)
    target.load_state_dict(q.state_dict())
    opt = torch.optim.Adam(q.parameters(), lr=5e-4)
    buf = ReplayBuffer(100_000, 8)
    obs, _ = env.reset(seed=0)
    eps = 1.0
    for step in range(50_000):
        if random.random() < eps:
            action = env.action_space.sample()
        else:
            with torch.no_grad():
                action = q(torch.as_tensor(obs, device=device).unsqueeze(0)).argmax().item()
        nxt, r, term, trunc, _ = env.step(action)
        buf.add(obs, action, r, nxt, float(term))
        obs = nxt if not (term or trunc) else env.reset()[0]
        eps = max(0.05, eps * 0.9995)
        if step > 1000:
            o, a, r, o2, d = buf.sample(128, device)
            with torch.no_grad():
                y = r + 0.99 * (1 - d) * target(o2).max(1).values
            loss = F.smooth_l1_loss(q(o).gather(1, a[:, None]).squeeze(1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if step % 1000 == 0:
            target.load_state_dict(q.state_dict())


if __name__ == "__main__":
    main()
