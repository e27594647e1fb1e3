"""Replay memory backed by numpy arrays."""
import numpy as np
import torch


class ReplayBuffer:
    def __init__(self, capacity, obs_shape):
        self.obs = np.zeros((capacity, *obs_shape), dtype=np.float32)
        self.next_obs = np.zeros((capacity, *obs_shape), dtype=np.float32)
        self.actions = np.zeros((capacity, 1), dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.size, self.ptr = capacity, 0, 0

    def push(self, obs, action, reward, next_obs, done):
        i = self.ptr
        self.obs[i], self.actions[i, 0], self.rewards[i], self.next_obs[i], self.dones[i] = obs, action, reward, next_obs, done
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size, device):
        ix = np.random.randint(0, self.size, size=batch_size)
        obs = torch.from_numpy(self.obs[ix]).to(device)
        next_obs = torch.from_numpy(self.next_obs[ix]).to(device)
        actions = torch.from_numpy(self.actions[ix])  # expect: DEV006
        rewards = torch.from_numpy(self.rewards[ix]).to(device)
        dones = torch.from_numpy(self.dones[ix]).to(device)
        return obs, actions, rewards, next_obs, dones
