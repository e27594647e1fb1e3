"""Double DQN with a replay buffer of NumPy transitions and a Polyak-averaged
target network; the target is copied after the online net is on its device."""
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GridWalk:
    def __init__(self, size=6, seed=0):
        self.size, self.rng = size, np.random.default_rng(seed)

    def reset(self):
        self.pos = np.array([0, 0])
        return self.obs()

    def obs(self):
        o = np.zeros((self.size, self.size), dtype=np.float32)
        o[tuple(self.pos)] = 1.0
        return o.ravel()

    def step(self, a):
        move = [(0, 1), (1, 0), (0, -1), (-1, 0)][a]
        self.pos = np.clip(self.pos + move, 0, self.size - 1)
        done = bool((self.pos == self.size - 1).all())
        return self.obs(), (1.0 if done else -0.02), done


class Replay:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros_like(self.obs)
        self.act = np.zeros(capacity, dtype=np.int64)
        self.rew = np.zeros(capacity, dtype=np.float32)
        self.done = np.zeros(capacity, dtype=np.float32)
        self.idx, self.full, self.capacity = 0, False, capacity

    def add(self, o, a, r, o2, d):
        i = self.idx
        self.obs[i], self.act[i], self.rew[i], self.next_obs[i], self.done[i] = o, a, r, o2, d
        self.idx = (i + 1) % self.capacity
        self.full = self.full or self.idx == 0

    def __len__(self):
        return self.capacity if self.full else self.idx

    def sample(self, n, device):
        ids = np.random.randint(0, len(self), n)
        to = lambda arr: torch.from_numpy(arr[ids]).to(device)
        return to(self.obs), to(self.act), to(self.rew), to(self.next_obs), to(self.done)


def polyak(target, online, tau=0.05):
    with torch.no_grad():
        for tp, p in zip(target.parameters(), online.parameters()):
            tp.mul_(1 - tau).add_(p, alpha=tau)


def main():
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = GridWalk()
    obs_dim = env.size ** 2
    online = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    target = copy.deepcopy(online).eval()
    optimizer = torch.optim.Adam(online.parameters(), lr=1e-3)
    replay = Replay(5000, obs_dim)
    gamma, steps = 0.99, 0

    for episode in range(5):
        o, ret = env.reset(), 0.0
        for _ in range(50):
            eps = max(0.1, 1 - steps / 200)
            if random.random() < eps:
                a = random.randrange(4)
            else:
                with torch.no_grad():
                    a = online(torch.from_numpy(o).to(device)[None]).argmax(1).item()
            o2, r, d = env.step(a)
            replay.add(o, a, r, o2, float(d))
            o, ret, steps = o2, ret + r, steps + 1
            if len(replay) >= 64:
                ob, ac, rw, ob2, dn = replay.sample(64, device)
                q = online(ob).gather(1, ac[:, None]).squeeze(1)
                with torch.no_grad():
                    best = online(ob2).argmax(1, keepdim=True)
                    y = rw + gamma * (1 - dn) * target(ob2).gather(1, best).squeeze(1)
                loss = F.mse_loss(q, y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                polyak(target, online)
            if d:
                break
        print(f"episode {episode} return {ret:.2f}")


if __name__ == "__main__":
    main()
