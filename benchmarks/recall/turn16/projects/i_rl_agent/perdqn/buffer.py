"""Proportional prioritized replay (Schaul et al., 2016), flat numpy storage."""
import numpy as np
import torch


class PrioritizedReplay:
    def __init__(self, capacity, obs_dim, device, alpha=0.6, eps=1e-5):
        self.capacity, self.device, self.alpha, self.eps = capacity, device, alpha, eps
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.priorities = np.zeros(capacity, dtype=np.float64)
        self.ptr, self.size = 0, 0

    def __len__(self):
        return self.size

    def add(self, obs, action, reward, next_obs, done):
        max_p = self.priorities[: self.size].max() if self.size else 1.0
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i] = obs, action, reward
        self.next_obs[i], self.dones[i] = next_obs, float(done)
        self.priorities[i] = max_p
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size, beta):
        p = self.priorities[: self.size] ** self.alpha
        p /= p.sum()
        idx = np.random.choice(self.size, batch_size, p=p)
        is_weights = (self.size * p[idx]) ** (-beta)
        is_weights /= is_weights.max()
        batch = {
            "obs": torch.as_tensor(self.obs[idx], device=self.device),
            "actions": torch.as_tensor(self.actions[idx], device=self.device),
            "rewards": torch.as_tensor(self.rewards[idx], device=self.device),
            "next_obs": torch.as_tensor(self.next_obs[idx], device=self.device),
            "dones": torch.as_tensor(self.dones[idx], device=self.device),
            "weights": torch.from_numpy(is_weights.astype(np.float32)),  # expect: DEV006
        }
        return batch, idx

    def update_priorities(self, idx, td_errors):
        self.priorities[idx] = np.abs(td_errors) + self.eps
