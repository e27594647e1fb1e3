"""Toy grid environment and the replay memory the trainer samples from."""
import numpy as np
import torch


class GridWorld:
    """Agent starts in a random cell and must reach the bottom-right corner."""

    MOVES = ((-1, 0), (1, 0), (0, -1), (0, 1))

    def __init__(self, size=5, seed=0):
        self.size = size
        self.rng = np.random.default_rng(seed)

    @property
    def obs_dim(self):
        return 2 * self.size

    def reset(self):
        self.r, self.c, self.t = *self.rng.integers(0, self.size, 2), 0
        return self._obs()

    def _obs(self):
        obs = np.zeros(self.obs_dim, dtype=np.float32)
        obs[self.r] = 1.0
        obs[self.size + self.c] = 1.0
        return obs

    def step(self, action):
        dr, dc = self.MOVES[action]
        self.r = int(np.clip(self.r + dr, 0, self.size - 1))
        self.c = int(np.clip(self.c + dc, 0, self.size - 1))
        self.t += 1
        goal = self.r == self.c == self.size - 1
        return self._obs(), (1.0 if goal else -0.02), goal or self.t >= 4 * self.size


class ReplayBuffer:
    def __init__(self, capacity, obs_dim, seed=0):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros_like(self.obs)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.ptr, self.size = capacity, 0, 0
        self.rng = np.random.default_rng(seed)

    def push(self, obs, action, reward, next_obs, done):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i] = obs, action, reward
        self.next_obs[i], self.dones[i] = next_obs, float(done)
        self.ptr = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def __len__(self):
        return self.size

    def sample(self, batch_size):
        """Return (obs, actions, rewards, next_obs, dones) as tensors."""
        idx = self.rng.integers(0, self.size, size=batch_size)
        return (
            torch.from_numpy(self.obs[idx]),
            torch.from_numpy(self.actions[idx]),
            torch.from_numpy(self.rewards[idx]),
            torch.from_numpy(self.next_obs[idx]),
            torch.from_numpy(self.dones[idx]),
        )
