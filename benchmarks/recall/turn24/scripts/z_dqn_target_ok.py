"""DQN on uint8 frame stacks: target network copied after the move, actions as Python ints."""
import copy
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

FRAMES, SIZE, N_ACTIONS = 2, 12, 3


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(FRAMES, 8, 3, 2), nn.ReLU(), nn.Flatten())
        self.fc = nn.Linear(8 * 5 * 5, N_ACTIONS)

    def forward(self, x):
        return self.fc(self.conv(x))


class Agent:
    def __init__(self, device, gamma=0.99):
        self.device, self.gamma = device, gamma
        self.q = QNet().to(device)
        self.target = copy.deepcopy(self.q)
        self.target.requires_grad_(False)
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)
        self.buffer = deque(maxlen=1000)

    def obs_to_tensor(self, frames):
        x = torch.as_tensor(frames, device=self.device)
        return x.float().div_(255.0)

    def act(self, frames, eps):
        if random.random() < eps:
            return random.randrange(N_ACTIONS)
        with torch.no_grad():
            return self.q(self.obs_to_tensor(frames[None])).argmax(1).item()

    def learn(self, batch_size=16):
        if len(self.buffer) < batch_size:
            return float("nan")
        o, a, r, o2, d = map(np.array, zip(*random.sample(self.buffer, batch_size)))
        s, s2 = self.obs_to_tensor(o), self.obs_to_tensor(o2)
        a = torch.as_tensor(a, device=self.device)
        r = torch.as_tensor(r, dtype=torch.float32, device=self.device)
        d = torch.as_tensor(d, dtype=torch.float32, device=self.device)
        q = self.q(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            y = r + self.gamma * (1 - d) * self.target(s2).max(1).values
        loss = F.smooth_l1_loss(q, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        td = (y - q).detach().abs().cpu().numpy()
        return float(td.mean())


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    agent = Agent(device)
    obs = np.random.randint(0, 256, (FRAMES, SIZE, SIZE), dtype=np.uint8)
    for step in range(120):
        a = agent.act(obs, eps=max(0.1, 1 - step / 100))
        nxt = np.random.randint(0, 256, (FRAMES, SIZE, SIZE), dtype=np.uint8)
        agent.buffer.append((obs, a, float(a == 2), nxt, float(step % 30 == 29)))
        td = agent.learn()
        obs = nxt
        if step % 40 == 0:
            agent.target.load_state_dict(agent.q.state_dict())
    print("mean |td|", round(td, 4))


if __name__ == "__main__":
    main()
