"""Double DQN with a numpy replay buffer that hands back device tensors."""
import copy
import random
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    gamma: float = 0.97
    batch_size: int = 32
    tau: float = 0.01
    episodes: int = 15
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


class GridEnv:
    def __init__(self, size=5):
        self.size = size

    def reset(self):
        self.pos = np.array([0, 0])
        return self.obs()

    def obs(self):
        return (self.pos / (self.size - 1)).astype(np.float32)

    def step(self, a):
        delta = [(0, 1), (1, 0), (0, -1), (-1, 0)][a]
        self.pos = np.clip(self.pos + delta, 0, self.size - 1)
        done = bool((self.pos == self.size - 1).all())
        return self.obs(), (1.0 if done else -0.01), done


class Replay:
    def __init__(self, capacity, obs_dim, device):
        self.device = device
        self.s = np.zeros((capacity, obs_dim), np.float32)
        self.s2 = np.zeros((capacity, obs_dim), np.float32)
        self.a = np.zeros(capacity, np.int64)
        self.r = np.zeros(capacity, np.float32)
        self.d = np.zeros(capacity, np.float32)
        self.capacity, self.ptr, self.full = capacity, 0, False

    def push(self, s, a, r, s2, d):
        self.s[self.ptr], self.a[self.ptr], self.r[self.ptr] = s, a, r
        self.s2[self.ptr], self.d[self.ptr] = s2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.full = self.full or self.ptr == 0

    def __len__(self):
        return self.capacity if self.full else self.ptr

    def sample(self, n):
        idx = np.random.randint(0, len(self), n)
        as_t = lambda arr: torch.as_tensor(arr[idx], device=self.device)
        return as_t(self.s), as_t(self.a), as_t(self.r), as_t(self.s2), as_t(self.d)


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, 64), nn.ReLU(), nn.Linear(64, o))


def soft_update(target, online, tau):
    with torch.no_grad():
        for tp, p in zip(target.parameters(), online.parameters()):
            tp.mul_(1 - tau).add_(p, alpha=tau)


def main(cfg: Config):
    env = GridEnv()
    online = mlp(2, 4).to(cfg.device)
    target = copy.deepcopy(online)
    target.requires_grad_(False)
    opt = torch.optim.Adam(online.parameters(), lr=1e-3)
    buf = Replay(1000, 2, cfg.device)
    eps = 1.0
    for ep in range(cfg.episodes):
        s = env.reset()
        for t in range(40):
            if random.random() < eps:
                a = random.randrange(4)
            else:
                with torch.no_grad():
                    a = online(torch.as_tensor(s, device=cfg.device)[None]).argmax(1).item()
            s2, r, done = env.step(a)
            buf.push(s, a, r, s2, float(done))
            s = s2
            if len(buf) >= cfg.batch_size:
                bs, ba, br, bs2, bd = buf.sample(cfg.batch_size)
                q = online(bs).gather(1, ba[:, None]).squeeze(1)
                with torch.no_grad():
                    best = online(bs2).argmax(1, keepdim=True)
                    y = br + cfg.gamma * (1 - bd) * target(bs2).gather(1, best).squeeze(1)
                loss = F.mse_loss(q, y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                soft_update(target, online, cfg.tau)
            if done:
                break
        eps = max(0.05, eps * 0.9)
    print("trained", ep + 1, "episodes")


if __name__ == "__main__":
    main(Config())
