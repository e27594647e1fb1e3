"""DQN with a numpy replay buffer on a small grid world, logging Q-value statistics."""
import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GridWorld:
    """5x5 grid, start top-left, goal bottom-right, pits cost -1."""

    PITS = {(1, 3), (3, 1), (2, 2)}

    def __init__(self, size=5, max_steps=40):
        self.size, self.max_steps = size, max_steps
        self.n_actions = 4

    def _obs(self):
        obs = np.zeros((2, self.size, self.size), dtype=np.float32)
        obs[0, self.r, self.c] = 1.0
        for r, c in self.PITS:
            obs[1, r, c] = 1.0
        return obs.reshape(-1)

    def reset(self):
        self.r, self.c, self.t = 0, 0, 0
        return self._obs()

    def step(self, a):
        dr, dc = [(-1, 0), (1, 0), (0, -1), (0, 1)][a]
        self.r = min(max(self.r + dr, 0), self.size - 1)
        self.c = min(max(self.c + dc, 0), self.size - 1)
        self.t += 1
        if (self.r, self.c) == (self.size - 1, self.size - 1):
            return self._obs(), 1.0, True
        if (self.r, self.c) in self.PITS:
            return self._obs(), -1.0, True
        return self._obs(), -0.01, self.t >= self.max_steps


class NumpyReplay:
    def __init__(self, capacity, obs_dim, seed=0):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.ptr, self.full = capacity, 0, False
        self.rng = np.random.default_rng(seed)

    def add(self, o, a, r, o2, d):
        self.obs[self.ptr], self.actions[self.ptr], self.rewards[self.ptr] = o, a, r
        self.next_obs[self.ptr], self.dones[self.ptr] = o2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.full = self.full or self.ptr == 0

    def __len__(self):
        return self.capacity if self.full else self.ptr

    def sample(self, batch_size, device):
        idx = self.rng.integers(0, len(self), size=batch_size)
        as_t = lambda a: torch.as_tensor(a[idx], device=device)
        return as_t(self.obs), as_t(self.actions), as_t(self.rewards), as_t(self.next_obs), as_t(self.dones)


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, n_actions))

    def forward(self, x):
        return self.net(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=800)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--sync-every", type=int, default=100)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()

    torch.manual_seed(0)
    device = torch.device(args.device)
    env = GridWorld()
    obs_dim = 2 * env.size * env.size
    online = QNet(obs_dim, env.n_actions).to(device)
    target = copy.deepcopy(online).eval()
    optimizer = torch.optim.Adam(online.parameters(), lr=5e-4)
    replay = NumpyReplay(10_000, obs_dim)
    gamma = torch.tensor(0.97)
    eps_schedule = torch.linspace(1.0, 0.05, args.steps // 2)
    rng = np.random.default_rng(0)

    obs, ep_ret, returns = env.reset(), 0.0, []
    for step in range(args.steps):
        eps = float(eps_schedule[min(step, len(eps_schedule) - 1)])
        if rng.random() < eps:
            action = int(rng.integers(env.n_actions))
        else:
            with torch.no_grad():
                action = online(torch.as_tensor(obs, device=device).unsqueeze(0)).argmax(1).item()
        next_obs, reward, done = env.step(action)
        replay.add(obs, action, reward, next_obs, float(done))
        obs, ep_ret = next_obs, ep_ret + reward
        if done:
            returns.append(ep_ret)
            obs, ep_ret = env.reset(), 0.0

        if len(replay) >= args.batch_size:
            o, a, r, o2, d = replay.sample(args.batch_size, device)
            q = online(o).gather(1, a.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                y = r + gamma * (1 - d) * target(o2).max(1).values
            loss = F.smooth_l1_loss(q, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        if step % args.sync_every == 0:
            target.load_state_dict(online.state_dict())
            if len(replay) >= args.batch_size:
                q_vals = q.detach().cpu().numpy()
                print(f"step {step:4d}  eps {eps:.2f}  q mean {q_vals.mean():+.3f}  q max {q_vals.max():+.3f}  "
                      f"episodes {len(returns)}  last return {returns[-1] if returns else float('nan'):+.2f}")


if __name__ == "__main__":
    main()
