"""DQN on a toy grid corridor written with NumPy observations; epsilon-greedy acting and a
uniform replay buffer."""
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Corridor:
    def __init__(self, n=8):
        self.n = n

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        o = np.zeros(self.n, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, a):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if a == 1 else -1)))
        done = self.pos == self.n - 1
        return self._obs(), float(done), done


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = Corridor()
    q = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    opt = torch.optim.Adam(q.parameters(), lr=1e-3)
    memory = deque(maxlen=5000)
    eps = 1.0
    for episode in range(30):
        obs = env.reset()
        for t in range(40):
            if random.random() < eps:
                action = random.randrange(2)
            else:
                with torch.no_grad():
                    action = q(torch.as_tensor(obs)).argmax().item()  # expect: DEV006
            nxt, r, done = env.step(action)
            memory.append((obs, action, r, nxt, done))
            obs = nxt
            if len(memory) >= 64:
                batch = random.sample(memory, 64)
                o, a, r_, o2, d = map(np.array, zip(*batch))
                o, o2 = torch.from_numpy(o).to(device), torch.from_numpy(o2).to(device)
                a = torch.from_numpy(a).long().to(device)
                r_ = torch.from_numpy(r_).float().to(device)
                d = torch.from_numpy(d).float().to(device)
                target = r_ + 0.95 * (1 - d) * q(o2).max(1).values.detach()
                loss = F.smooth_l1_loss(q(o).gather(1, a[:, None]).squeeze(1), target)
                opt.zero_grad()
                loss.backward()
                opt.step()
            if done:
                break
        eps = max(0.05, eps * 0.9)
    print(len(memory))


if __name__ == "__main__":
    main()
