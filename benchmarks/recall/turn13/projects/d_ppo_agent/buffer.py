"""NumPy rollout storage with GAE; hands out minibatches as tensors on the requested device."""
import numpy as np
import torch


class RolloutBuffer:
    def __init__(self, size, obs_dim, gamma=0.99, lam=0.95):
        self.obs = np.zeros((size, obs_dim), np.float32)
        self.actions = np.zeros(size, np.int64)
        self.logps = np.zeros(size, np.float32)
        self.rewards = np.zeros(size, np.float32)
        self.values = np.zeros(size, np.float32)
        self.dones = np.zeros(size, np.float32)
        self.gamma, self.lam, self.size, self.ptr = gamma, lam, size, 0

    def add(self, obs, action, logp, reward, value, done):
        i = self.ptr
        self.obs[i], self.actions[i], self.logps[i] = obs, action, logp
        self.rewards[i], self.values[i], self.dones[i] = reward, value, done
        self.ptr += 1

    def finish(self, last_value):
        adv = np.zeros(self.size, np.float32)
        gae = 0.0
        for t in reversed(range(self.size)):
            next_v = last_value if t == self.size - 1 else self.values[t + 1]
            mask = 1.0 - self.dones[t]
            delta = self.rewards[t] + self.gamma * next_v * mask - self.values[t]
            gae = delta + self.gamma * self.lam * mask * gae
            adv[t] = gae
        self.returns = adv + self.values
        self.advantages = (adv - adv.mean()) / (adv.std() + 1e-8)
        self.ptr = 0

    def minibatches(self, batch_size, device):
        fields = {"obs": self.obs, "actions": self.actions, "logps": self.logps,
                  "advantages": self.advantages, "returns": self.returns}
        perm = np.random.permutation(self.size)
        for start in range(0, self.size, batch_size):
            idx = perm[start:start + batch_size]
            yield {k: torch.as_tensor(v[idx], device=device) for k, v in fields.items()}
