"""REINFORCE with normalised discounted returns on a small bandit-like chain."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Chain:
    def __init__(self, n=6, seed=0):
        self.n, self.rng = n, np.random.default_rng(seed)

    def reset(self):
        self.s, self.t = 0, 0
        return self._obs()

    def _obs(self):
        return np.eye(self.n, dtype=np.float32)[self.s]

    def step(self, a):
        self.t += 1
        self.s = min(self.s + 1, self.n - 1) if a == 1 else max(self.s - 1, 0)
        r = 1.0 if self.s == self.n - 1 else 0.0
        return self._obs(), r, r > 0 or self.t >= 25


class Policy(nn.Module):
    def __init__(self, n_obs, n_act):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_obs, 32), nn.Tanh(), nn.Linear(32, n_act))

    def forward(self, x):
        return self.net(x)


def discounted_returns(rewards, gamma):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.insert(0, g)
    ret = torch.tensor(out)  # expect: DEV006
    return (ret - ret.mean()) / (ret.std() + 1e-8)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--episodes", type=int, default=60)
    p.add_argument("--gamma", type=float, default=0.97)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = p.parse_args()
    device = torch.device(args.device)
    env = Chain()
    policy = Policy(env.n, 2)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    running = 0.0
    for episode in range(args.episodes):
        policy.to(device)  # expect: DEV007
        obs, done = env.reset(), False
        log_probs, rewards = [], []
        while not done:
            state = torch.as_tensor(obs, device=device)
            dist = Categorical(logits=policy(state))
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            obs, r, done = env.step(action.item())
            rewards.append(r)
        if len(rewards) < 2:
            continue
        returns = discounted_returns(rewards, args.gamma)
        loss = -(torch.stack(log_probs) * returns).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        running = 0.9 * running + 0.1 * sum(rewards)
        if episode % 20 == 0:
            print(f"episode {episode} len {len(rewards)} running reward {running:.2f}")


if __name__ == "__main__":
    main()
