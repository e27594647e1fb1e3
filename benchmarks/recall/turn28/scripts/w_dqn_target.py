"""DQN with a numpy replay buffer and a target network (toy chain environment)."""
import argparse
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChainEnv:
    """Tiny deterministic chain: move left/right, reward at the right end."""

    def __init__(self, n=8, seed=0):
        self.n = n
        self.rng = np.random.default_rng(seed)
        self.pos = 0

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        o = np.zeros(self.n, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.n - 1
        return self._obs(), float(done), done


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.size, self.ptr = capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i], self.next_obs[i], self.dones[i] = o, a, r, o2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = np.random.randint(0, self.size, size=batch_size)
        return (self.obs[idx], self.actions[idx], self.rewards[idx],
                self.next_obs[idx], self.dones[idx])


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, x):
        return self.net(x)


def select_action(q_net, obs, epsilon, n_actions, device):
    if random.random() < epsilon:
        return random.randrange(n_actions)
    with torch.no_grad():
        obs_t = torch.as_tensor(obs, device=device).unsqueeze(0)
        return q_net(obs_t).argmax(dim=1).item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--target-every", type=int, default=50)
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = ChainEnv()
    obs_dim, n_actions = env.n, 2

    q_net = QNet(obs_dim, n_actions)
    target_net = copy.deepcopy(q_net)  # expect: DEV016
    target_net.eval()
    q_net.to(device)
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    buffer = ReplayBuffer(5000, obs_dim)

    obs = env.reset()
    for step in range(args.steps):
        epsilon = max(0.05, 1.0 - step / 200)
        action = select_action(q_net, obs, epsilon, n_actions, device)
        next_obs, reward, done = env.step(action)
        buffer.add(obs, action, reward, next_obs, float(done))
        obs = env.reset() if done else next_obs

        if buffer.size < args.batch_size:
            continue
        o, a, r, o2, d = buffer.sample(args.batch_size)
        o = torch.from_numpy(o).to(device)
        a = torch.from_numpy(a)  # expect: DEV006
        r = torch.from_numpy(r).to(device)
        o2 = torch.from_numpy(o2).to(device)
        d = torch.from_numpy(d).to(device)

        q_sa = q_net(o).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            q_next = target_net(o2).max(dim=1).values
            target = r + args.gamma * (1.0 - d) * q_next
        loss = F.smooth_l1_loss(q_sa, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if step % args.target_every == 0:
            target_net.load_state_dict(q_net.state_dict())
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.4f} eps {epsilon:.2f}")


if __name__ == "__main__":
    main()
