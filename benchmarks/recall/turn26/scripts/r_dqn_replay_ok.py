"""DQN with a replay buffer kept on the training device; target network copied after the move."""
import argparse
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ToyEnv:
    def __init__(self, obs_dim=8, n_actions=4, horizon=20, seed=0):
        self.rng = np.random.default_rng(seed)
        self.obs_dim, self.n_actions, self.horizon = obs_dim, n_actions, horizon
        self.t = 0

    def reset(self):
        self.t = 0
        return self.rng.standard_normal(self.obs_dim).astype(np.float32)

    def step(self, action):
        self.t += 1
        obs = self.rng.standard_normal(self.obs_dim).astype(np.float32)
        return obs, float(action == int(obs[0] > 0)), self.t >= self.horizon, {}


class TorchReplay:
    """Transitions stored as tensors on `device`; sampled with a CPU index tensor."""

    def __init__(self, capacity, obs_dim, device):
        self.obs = torch.zeros(capacity, obs_dim, device=device)
        self.next_obs = torch.zeros(capacity, obs_dim, device=device)
        self.actions = torch.zeros(capacity, dtype=torch.long, device=device)
        self.rewards = torch.zeros(capacity, device=device)
        self.dones = torch.zeros(capacity, device=device)
        self.device, self.capacity, self.ptr, self.size = device, capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i] = torch.as_tensor(o, device=self.device)
        self.next_obs[i] = torch.as_tensor(o2, device=self.device)
        self.actions[i] = a
        self.rewards[i] = r
        self.dones[i] = d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = torch.randint(0, self.size, (batch_size,))
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, x):
        return self.net(x)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--cpu", action="store_true")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    env = ToyEnv()
    q_net = QNet(env.obs_dim, env.n_actions).to(device)
    target_net = copy.deepcopy(q_net)
    target_net.requires_grad_(False)
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    buffer = TorchReplay(5000, env.obs_dim, device)

    obs = env.reset()
    for step in range(args.steps):
        if random.random() < max(0.05, 1.0 - step / 300):
            action = random.randrange(env.n_actions)
        else:
            with torch.no_grad():
                action = int(q_net(torch.from_numpy(obs).to(device)[None]).argmax(1).item())
        next_obs, reward, done, _ = env.step(action)
        buffer.add(obs, action, reward, next_obs, float(done))
        obs = env.reset() if done else next_obs
        if buffer.size < args.batch_size:
            continue
        o, a, r, o2, d = buffer.sample(args.batch_size)
        q_sa = q_net(o).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            target = r + args.gamma * (1.0 - d) * target_net(o2).max(1).values
        loss = F.smooth_l1_loss(q_sa, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            for tp, sp in zip(target_net.parameters(), q_net.parameters()):
                tp.lerp_(sp, 0.01)
    print("done", loss.item())


if __name__ == "__main__":
    main()
