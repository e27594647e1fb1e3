import numpy as np
import torch


class PrioritizedReplay:
    """Proportional prioritized replay (Schaul et al.), flat array version."""

    def __init__(self, capacity, obs_dim, device, alpha=0.6):
        self.capacity, self.device, self.alpha = capacity, device, alpha
        self.obs = np.zeros((capacity, obs_dim), np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), np.float32)
        self.act = np.zeros(capacity, np.int64)
        self.rew = np.zeros(capacity, np.float32)
        self.done = np.zeros(capacity, np.float32)
        self.prio = np.zeros(capacity, np.float64)
        self.ptr, self.size = 0, 0

    def add(self, o, a, r, o2, d):
        self.obs[self.ptr], self.act[self.ptr], self.rew[self.ptr] = o, a, r
        self.next_obs[self.ptr], self.done[self.ptr] = o2, d
        self.prio[self.ptr] = self.prio[: self.size].max() if self.size else 1.0
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size, beta=0.4):
        p = self.prio[: self.size] ** self.alpha
        p /= p.sum()
        idx = np.random.choice(self.size, batch_size, p=p)
        w = (self.size * p[idx]) ** (-beta)
        w = (w / w.max()).astype(np.float32)

        to_t = lambda a: torch.as_tensor(a, device=self.device)
        batch = {
            "obs": to_t(self.obs[idx]),
            "act": to_t(self.act[idx]),
            "rew": to_t(self.rew[idx]),
            "next_obs": to_t(self.next_obs[idx]),
            "done": to_t(self.done[idx]),
            "weights": torch.from_numpy(w),  # expect: DEV006
        }
        return batch, idx

    def update_priorities(self, idx, td_errors, eps=1e-5):
        self.prio[idx] = np.abs(td_errors) + eps
