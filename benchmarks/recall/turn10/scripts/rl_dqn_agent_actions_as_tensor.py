"""DQN agent on a small chain environment: the replay buffer stores NumPy arrays and the agent's
learn() turns a sampled batch into tensors before the TD update.

Thread: https://github.com/DeepRLChinese/DeepRL-Chinese/issues/4 (04_dqn.py: Expected all tensors
to be on the same device, but found at least two devices, cpu and cuda:0!).
"""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Chain:
    def __init__(self, n=8):
        self.n, self.pos = n, 0

    def reset(self):
        self.pos = 0
        return self.obs()

    def obs(self):
        o = np.zeros(self.n, np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.n - 1
        return self.obs(), float(done), done


class Replay:
    def __init__(self, cap, dim):
        self.o, self.o2 = np.zeros((cap, dim), np.float32), np.zeros((cap, dim), np.float32)
        self.a, self.r, self.d = np.zeros(cap, np.int64), np.zeros(cap, np.float32), np.zeros(cap, np.float32)
        self.cap, self.i, self.n = cap, 0, 0

    def add(self, o, a, r, o2, d):
        self.o[self.i], self.a[self.i], self.r[self.i], self.o2[self.i], self.d[self.i] = o, a, r, o2, d
        self.i, self.n = (self.i + 1) % self.cap, min(self.n + 1, self.cap)

    def sample(self, k):
        idx = np.random.randint(0, self.n, k)
        return self.o[idx], self.a[idx], self.r[idx], self.o2[idx], self.d[idx]


class Agent:
    def __init__(self, dim, n_actions, device, gamma=0.95):
        self.device, self.gamma, self.n_actions = device, gamma, n_actions
        self.q = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, n_actions)).to(device)
        self.target = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, n_actions)).to(device)
        self.target.load_state_dict(self.q.state_dict())
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)

    def act(self, obs, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return int(self.q(torch.as_tensor(obs, device=self.device)[None]).argmax())

    def learn(self, buf, k=32):
        o, a, r, o2, d = buf.sample(k)
        o, o2 = torch.as_tensor(o, device=self.device), torch.as_tensor(o2, device=self.device)
        r, d = torch.as_tensor(r, device=self.device), torch.as_tensor(d, device=self.device)
        a = torch.as_tensor(a)  # expect: DEV006
        q = self.q(o).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            y = r + self.gamma * (1 - d) * self.target(o2).max(1).values
        loss = F.smooth_l1_loss(q, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env, buf = Chain(), Replay(5000, 8)
    agent = Agent(8, 2, device)
    for episode in range(30):
        o, done, t = env.reset(), False, 0
        while not done and t < 50:
            a = agent.act(o, eps=max(0.05, 1 - episode / 20))
            o2, r, done = env.step(a)
            buf.add(o, a, r, o2, done)
            o, t = o2, t + 1
            if buf.n >= 64:
                agent.learn(buf)
        if episode % 10 == 0:
            agent.target.load_state_dict(agent.q.state_dict())
    print("last episode length", t)
