"""DQN on a tiny corridor world with a numpy replay buffer and a target network."""
import copy
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Corridor:
    """Walk left/right on a line of 8 cells; reward at the right end."""

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
        return self._obs(), (1.0 if done else -0.01), done


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, x):
        return self.body(x)


class Agent:
    def __init__(self, obs_dim, n_actions, device, gamma=0.95, lr=1e-3):
        self.device = device
        self.n_actions = n_actions
        self.gamma = gamma
        self.q = QNet(obs_dim, n_actions)
        self.target = copy.deepcopy(self.q)  # expect: DEV016
        self.q.to(device)
        self.target.eval()
        self.opt = torch.optim.Adam(self.q.parameters(), lr=lr)
        self.buffer = deque(maxlen=5000)

    def act(self, obs, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            q = self.q(torch.as_tensor(obs, device=self.device).unsqueeze(0))
        return int(q.argmax(dim=1).numpy()[0])  # expect: DEV011

    def update(self, batch_size=32):
        if len(self.buffer) < batch_size:
            return None
        batch = random.sample(self.buffer, batch_size)
        s, a, r, s2, d = (np.array(x) for x in zip(*batch))
        s, s2 = torch.as_tensor(s, device=self.device), torch.as_tensor(s2, device=self.device)
        a = torch.as_tensor(a, dtype=torch.long, device=self.device)
        r = torch.as_tensor(r, dtype=torch.float32, device=self.device)
        d = torch.as_tensor(d, dtype=torch.float32, device=self.device)
        q = self.q(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = r + self.gamma * (1 - d) * self.target(s2).max(dim=1).values
        loss = F.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def sync(self):
        self.target.load_state_dict(self.q.state_dict())


def main():
    random.seed(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = Corridor()
    agent = Agent(env.n, 2, device)
    eps = 1.0
    for episode in range(30):
        obs, done, steps, ret = env.reset(), False, 0, 0.0
        while not done and steps < 50:
            a = agent.act(obs, eps)
            obs2, r, done = env.step(a)
            agent.buffer.append((obs, a, r, obs2, float(done)))
            agent.update()
            obs, ret, steps = obs2, ret + r, steps + 1
        eps = max(0.05, eps * 0.9)
        if episode % 5 == 0:
            agent.sync()
            print(f"episode {episode} return {ret:.2f} eps {eps:.2f}")


if __name__ == "__main__":
    main()
