"""DDPG-style data collection into a preallocated NumPy replay buffer."""
import numpy as np
import torch
import torch.nn as nn


class NumpyReplay:
    def __init__(self, capacity, obs_dim, act_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros((capacity, act_dim), dtype=np.float32)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.ptr, self.size, self.capacity = 0, 0, capacity

    def add(self, obs, action, reward):
        self.obs[self.ptr] = obs
        self.actions[self.ptr] = action
        self.rewards[self.ptr] = reward
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    actor = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 2), nn.Tanh()).to(device)
    buffer = NumpyReplay(1000, obs_dim=6, act_dim=2)
    obs = np.random.randn(6).astype(np.float32)
    for step in range(100):
        with torch.no_grad():
            action = actor(torch.from_numpy(obs).to(device))
        action = (action + 0.1 * torch.randn_like(action)).clamp(-1.0, 1.0)
        reward = -float(np.square(obs).sum())
        buffer.add(obs, action, reward)  # expect: DEV011
        obs = (0.9 * obs + 0.1 * np.random.randn(6)).astype(np.float32)
    print(buffer.size, buffer.actions[:3])


if __name__ == "__main__":
    main()
