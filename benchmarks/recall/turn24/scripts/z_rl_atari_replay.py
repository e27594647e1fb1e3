"""Frame-stacked DQN update on uint8 observations (a shrunken Atari setup)."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

FRAMES, SIZE, N_ACTIONS = 4, 16, 3


class FakeAtari:
    def reset(self):
        self.t = 0
        return self._frame()

    def _frame(self):
        return np.random.randint(0, 256, (FRAMES, SIZE, SIZE), dtype=np.uint8)

    def step(self, action):
        self.t += 1
        return self._frame(), float(action == 1), self.t >= 20


class ReplayBuffer:
    def __init__(self, capacity=2000):
        self.obs = np.zeros((capacity, FRAMES, SIZE, SIZE), dtype=np.uint8)
        self.next_obs = np.zeros_like(self.obs)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.idx, self.full = capacity, 0, False

    def add(self, o, a, r, o2, d):
        i = self.idx
        self.obs[i], self.actions[i], self.rewards[i], self.next_obs[i], self.dones[i] = o, a, r, o2, d
        self.idx = (i + 1) % self.capacity
        self.full = self.full or self.idx == 0

    def sample(self, n):
        hi = self.capacity if self.full else self.idx
        ix = np.random.randint(0, hi, n)
        return self.obs[ix], self.actions[ix], self.rewards[ix], self.next_obs[ix], self.dones[ix]


class NatureCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(FRAMES, 16, 4, 2), nn.ReLU(), nn.Conv2d(16, 32, 3, 2), nn.ReLU())
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(32 * 3 * 3, 64), nn.ReLU(), nn.Linear(64, N_ACTIONS))

    def forward(self, x):
        return self.fc(self.conv(x))


def to_input(frames, device):
    x = torch.from_numpy(frames).to(device)
    return x.type(torch.FloatTensor) / 255.0  # expect: DEV021


def select_action(net, obs, eps, device):
    if random.random() < eps:
        return random.randrange(N_ACTIONS)
    with torch.no_grad():
        return net(to_input(obs[None], device)).argmax(1).item()


def train_step(net, target, opt, buf, device, gamma=0.99, batch=32):
    o, a, r, o2, d = buf.sample(batch)
    states = torch.from_numpy(o).to(device).float() / 255.0
    next_states = torch.from_numpy(o2).to(device).float() / 255.0
    actions = torch.as_tensor(a)  # expect: DEV006
    rewards = torch.as_tensor(r, device=device)
    dones = torch.as_tensor(d, device=device)
    q = net(states).gather(1, actions.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        y = rewards + gamma * (1 - dones) * target(next_states).max(1).values
    loss = F.mse_loss(q, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net, target = NatureCNN().to(device), NatureCNN().to(device)
    target.load_state_dict(net.state_dict())
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    env, buf = FakeAtari(), ReplayBuffer()
    obs = env.reset()
    for step in range(200):
        a = select_action(net, obs, eps=max(0.1, 1 - step / 150), device=device)
        obs2, r, done = env.step(a)
        buf.add(obs, a, r, obs2, done)
        obs = env.reset() if done else obs2
        if step > 64 and step % 4 == 0:
            loss = train_step(net, target, opt, buf, device)
        if step % 50 == 0:
            target.load_state_dict(net.state_dict())
    print("last loss", round(loss, 5))


if __name__ == "__main__":
    main()
