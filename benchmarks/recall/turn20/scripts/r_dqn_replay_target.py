"""DQN on a toy chain environment with a numpy replay buffer."""
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChainEnv:
    def __init__(self, n=6):
        self.n = n
        self.pos = 0

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        o = np.zeros(self.n, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, a):
        self.pos = min(self.n - 1, self.pos + 1) if a == 1 else max(0, self.pos - 1)
        done = self.pos == self.n - 1
        return self._obs(), float(done), done


class ReplayBuffer:
    def __init__(self, cap, obs_dim):
        self.obs = np.zeros((cap, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((cap, obs_dim), dtype=np.float32)
        self.act = np.zeros(cap, dtype=np.int64)
        self.rew = np.zeros(cap, dtype=np.float32)
        self.done = np.zeros(cap, dtype=np.float32)
        self.cap, self.i, self.size = cap, 0, 0

    def add(self, o, a, r, o2, d):
        self.obs[self.i], self.act[self.i], self.rew[self.i] = o, a, r
        self.next_obs[self.i], self.done[self.i] = o2, d
        self.i = (self.i + 1) % self.cap
        self.size = min(self.size + 1, self.cap)

    def sample(self, bs):
        idx = np.random.randint(0, self.size, size=bs)
        return self.obs[idx], self.act[idx], self.rew[idx], self.next_obs[idx], self.done[idx]


class QNet(nn.Module):
    def __init__(self, obs_dim, n_act):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 32)
        self.fc2 = nn.Linear(32, n_act)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
env = ChainEnv()
q_net = QNet(6, 2)
target_net = copy.deepcopy(q_net)  # expect: DEV016
q_net.to(device)
optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
buffer = ReplayBuffer(500, 6)
gamma = 0.95


def update(batch_size=32):
    o, a, r, o2, d = buffer.sample(batch_size)
    o = torch.from_numpy(o).to(device)
    o2 = torch.from_numpy(o2).to(device)
    a = torch.from_numpy(a).to(device)
    r = torch.from_numpy(r)  # expect: DEV006
    d = torch.from_numpy(d).to(device)
    q = q_net(o).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_q = target_net(o2).max(1)[0]
        target = r + gamma * (1 - d) * next_q
    loss = F.smooth_l1_loss(q, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


steps = 0
for episode in range(20):
    obs = env.reset()
    for t in range(20):
        if random.random() < 0.2:
            action = random.randrange(2)
        else:
            with torch.no_grad():
                qs = q_net(torch.as_tensor(obs, device=device).unsqueeze(0))
            action = int(qs.argmax(1).item())
        next_obs, reward, done = env.step(action)
        buffer.add(obs, action, reward, next_obs, done)
        obs = next_obs
        steps += 1
        if buffer.size >= 32:
            update()
        if steps % 50 == 0:
            target_net.load_state_dict(q_net.state_dict())
        if done:
            break
print("done", steps)
