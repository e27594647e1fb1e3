import numpy as np
import torch


class ReplayBuffer:
    def __init__(self, capacity, obs_dim, device):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.device = device
        self.ptr, self.size, self.capacity = 0, 0, capacity

    def add(self, obs, action, reward, next_obs, done):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i] = obs, action, reward
        self.next_obs[i], self.dones[i] = next_obs, float(done)
        self.ptr = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        ix = np.random.randint(0, self.size, size=batch_size)
        as_t = lambda a: torch.as_tensor(a[ix], device=self.device)
        return as_t(self.obs), as_t(self.actions), as_t(self.rewards), as_t(self.next_obs), as_t(self.dones)
