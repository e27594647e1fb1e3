"""Correct look-alike: a DQN learn() that puts every sampled NumPy array (actions included) on the
agent's device, and a vectorised rollout that builds the observation tensor on the device and
brings the sampled actions back with .cpu() before NumPy steps the environments.

Thread: https://github.com/juliusfrost/dreamer-pytorch/pull/38 (move sampled data to the correct
device when running on the GPU).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


def to_device(batch, device):
    return [torch.as_tensor(v, device=device) for v in batch]


class QAgent:
    def __init__(self, dim, n_actions, device):
        self.device = device
        self.q = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, n_actions)).to(device)
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)

    def learn(self, o, a, r, o2, d, gamma=0.95):
        o, a, r, o2, d = to_device((o, a, r, o2, d), self.device)
        q = self.q(o).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            y = r + gamma * (1 - d) * self.q(o2).max(1).values
        loss = F.smooth_l1_loss(q, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


def rollout(policy, obs_batch, device):
    with torch.no_grad():
        logits = policy(torch.as_tensor(obs_batch, dtype=torch.float32, device=device))
    actions = Categorical(logits=logits).sample()
    return actions.cpu().numpy()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    agent = QAgent(4, 2, device)
    rng = np.random.default_rng(0)
    for step in range(100):
        o = rng.random((32, 4), dtype=np.float32)
        a = rollout(agent.q, o, device)
        r = (a == (o[:, 0] > 0.5)).astype(np.float32)
        o2 = rng.random((32, 4), dtype=np.float32)
        d = np.zeros(32, np.float32)
        loss = agent.learn(o, a.astype(np.int64), r, o2, d)
    print("td loss", loss)
