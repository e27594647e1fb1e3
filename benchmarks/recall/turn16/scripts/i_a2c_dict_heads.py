"""Advantage actor-critic (n-step returns) on a small gridworld.
Actor and critic share a body; the heads are looked up by name.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class GridWorld:
    """5x5 grid, start top-left, goal bottom-right, -0.01 per step."""

    moves = [(-1, 0), (1, 0), (0, -1), (0, 1)]

    def __init__(self, size=5, max_steps=50):
        self.size, self.max_steps = size, max_steps

    def _obs(self):
        o = np.zeros((2, self.size, self.size), dtype=np.float32)
        o[0, self.r, self.c] = 1
        o[1, -1, -1] = 1
        return o.reshape(-1)

    def reset(self):
        self.r = self.c = self.t = 0
        return self._obs()

    def step(self, a):
        dr, dc = self.moves[a]
        self.r = min(max(self.r + dr, 0), self.size - 1)
        self.c = min(max(self.c + dc, 0), self.size - 1)
        self.t += 1
        goal = self.r == self.size - 1 and self.c == self.size - 1
        return self._obs(), (1.0 if goal else -0.01), goal or self.t >= self.max_steps


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.heads = {"pi": nn.Linear(hidden, n_actions), "v": nn.Linear(hidden, 1)}  # expect: DEV009

    def forward(self, obs):
        h = self.body(obs)
        return self.heads["pi"](h), self.heads["v"](h).squeeze(-1)


def n_step_returns(rewards, dones, bootstrap, gamma):
    R = bootstrap
    out = []
    for r, d in zip(reversed(rewards), reversed(dones)):
        R = r + gamma * R * (1.0 - d)
        out.append(R)
    out.reverse()
    return torch.tensor(out, dtype=torch.float32)  # expect: DEV006


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--updates", type=int, default=200)
    p.add_argument("--n-steps", type=int, default=10)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--entropy-coef", type=float, default=0.01)
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    env = GridWorld()
    obs = env.reset()
    model = ActorCritic(obs.size, 4).to(device)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=7e-4)

    episode_return, finished = 0.0, []
    for update in range(args.updates):
        log_probs, values, entropies, rewards, dones = [], [], [], [], []
        for _ in range(args.n_steps):
            logits, value = model(torch.as_tensor(obs, device=device))
            dist = Categorical(logits=logits)
            action = dist.sample()
            obs, reward, done = env.step(action.item())
            log_probs.append(dist.log_prob(action))
            entropies.append(dist.entropy())
            values.append(value)
            rewards.append(reward)
            dones.append(float(done))
            episode_return += reward
            if done:
                finished.append(episode_return)
                episode_return = 0.0
                obs = env.reset()

        with torch.no_grad():
            _, last_value = model(torch.as_tensor(obs, device=device))
        returns = n_step_returns(rewards, dones, last_value.item(), args.gamma)
        values = torch.stack(values)
        advantages = returns - values
        policy_loss = -(torch.stack(log_probs) * advantages.detach()).mean()
        value_loss = F.mse_loss(values, returns)
        loss = policy_loss + 0.5 * value_loss - args.entropy_coef * torch.stack(entropies).mean()
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        if update % 50 == 0 and finished:
            print(f"update {update}  mean return (last 10) {np.mean(finished[-10:]):.3f}")


if __name__ == "__main__":
    main()
