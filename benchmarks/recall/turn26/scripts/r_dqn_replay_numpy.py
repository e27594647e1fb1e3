"""DQN on a toy environment: numpy replay buffer, target network synced every N steps."""
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
        reward = float(action == int(obs[0] > 0))
        return obs, reward, self.t >= self.horizon, {}


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.ptr, self.size = capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i], self.next_obs[i], self.dones[i] = o, a, r, o2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = np.random.randint(0, self.size, size=batch_size)
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
    p.add_argument("--target-every", type=int, default=100)
    p.add_argument("--cpu", action="store_true")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    env = ToyEnv()
    q_net = QNet(env.obs_dim, env.n_actions)
    target_net = copy.deepcopy(q_net)  # expect: DEV016
    q_net.to(device)
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    buffer = ReplayBuffer(5000, env.obs_dim)

    obs = env.reset()
    for step in range(args.steps):
        eps = max(0.05, 1.0 - step / 300)
        if random.random() < eps:
            action = random.randrange(env.n_actions)
        else:
            with torch.no_grad():
                q = q_net(torch.as_tensor(obs, device=device).unsqueeze(0))
            action = int(q.argmax(dim=1).item())
        next_obs, reward, done, _ = env.step(action)
        buffer.add(obs, action, reward, next_obs, float(done))
        obs = env.reset() if done else next_obs

        if buffer.size < args.batch_size:
            continue
        o, a, r, o2, d = buffer.sample(args.batch_size)
        o = torch.from_numpy(o).to(device)
        a = torch.from_numpy(a).to(device)
        o2 = torch.from_numpy(o2).to(device)
        r = torch.from_numpy(r)  # expect: DEV006
        d = torch.from_numpy(d).to(device)

        q_sa = q_net(o).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_q = target_net(o2).max(dim=1).values
            target = r + args.gamma * (1.0 - d) * next_q
        loss = F.smooth_l1_loss(q_sa, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if step % args.target_every == 0:
            target_net.load_state_dict(q_net.state_dict())
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
