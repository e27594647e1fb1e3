"""Synchronous advantage actor-critic with GAE(lambda) over vectorised envs,
with a running observation normaliser kept inside the policy module.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal


class Reacher1D:
    """Continuous action in [-1, 1] moves a point towards a random target."""

    def __init__(self, rng):
        self.rng = rng

    def reset(self):
        self.x, self.goal, self.t = 0.0, float(self.rng.uniform(-3, 3)), 0
        return np.array([self.x, self.goal, 0.0], dtype=np.float32)

    def step(self, a):
        self.x += float(np.clip(a, -1, 1)) * 0.3
        self.t += 1
        r = -abs(self.x - self.goal)
        done = self.t >= 40
        obs = np.array([self.x, self.goal, self.t / 40], dtype=np.float32)
        if done:
            obs = self.reset()
        return obs, r, done


class RunningNorm(nn.Module):
    def __init__(self, dim, eps=1e-4):
        super().__init__()
        self.register_buffer("mean", torch.zeros(dim))
        self.register_buffer("var", torch.ones(dim))
        self.register_buffer("count", torch.tensor(eps))

    @torch.no_grad()
    def update(self, x):
        b_mean, b_var, b_n = x.mean(0), x.var(0, unbiased=False), x.size(0)
        delta = b_mean - self.mean
        tot = self.count + b_n
        self.mean += delta * b_n / tot
        self.var = (self.var * self.count + b_var * b_n + delta ** 2 * self.count * b_n / tot) / tot
        self.count = tot

    def forward(self, x):
        return ((x - self.mean) / (self.var + 1e-8).sqrt()).clamp(-5, 5)


class Policy(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.norm = RunningNorm(obs_dim)
        self.pi = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.v = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.log_std = nn.Parameter(torch.full((1,), -0.5))

    def forward(self, obs):
        z = self.norm(obs)
        return Normal(self.pi(z), self.log_std.exp()), self.v(z).squeeze(-1)


def gae(rewards, values, dones, last_value, gamma, lam):
    advantages = torch.zeros_like(rewards)
    last = torch.zeros_like(last_value)
    for t in reversed(range(rewards.size(0))):
        next_v = last_value if t == rewards.size(0) - 1 else values[t + 1]
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_v * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        advantages[t] = last
    return advantages, advantages + values


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--rollout", type=int, default=20)
    p.add_argument("--updates", type=int, default=40)
    p.add_argument("--device", default=None)
    args = p.parse_args()

    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    torch.manual_seed(0)
    envs = [Reacher1D(np.random.default_rng(i)) for i in range(args.num_envs)]
    obs = torch.as_tensor(np.stack([e.reset() for e in envs]), device=device)
    policy = Policy(3).to(device)
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
    lr_schedule = torch.linspace(3e-3, 3e-4, args.updates)
    ent_coef = torch.tensor(1e-3)

    for update in range(args.updates):
        for group in optimizer.param_groups:
            group["lr"] = lr_schedule[update].item()
        obs_buf, act_buf, rew_buf, done_buf, val_buf = [], [], [], [], []
        for _ in range(args.rollout):
            policy.norm.update(obs)
            with torch.no_grad():
                dist, value = policy(obs)
                action = dist.sample()
            steps = [e.step(a) for e, a in zip(envs, action.squeeze(-1).cpu().numpy())]
            next_obs, rew, done = zip(*steps)
            obs_buf.append(obs)
            act_buf.append(action)
            val_buf.append(value)
            rew_buf.append(torch.tensor(rew, dtype=torch.float32, device=device))
            done_buf.append(torch.tensor(done, dtype=torch.float32).to(device))
            obs = torch.as_tensor(np.stack(next_obs), device=device)

        with torch.no_grad():
            _, last_value = policy(obs)
        rewards, dones, values = torch.stack(rew_buf), torch.stack(done_buf), torch.stack(val_buf)
        adv, returns = gae(rewards, values, dones, last_value, 0.99, 0.95)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)

        dist, v = policy(torch.cat(obs_buf))
        logp = dist.log_prob(torch.cat(act_buf)).squeeze(-1)
        loss = (-(logp * adv.reshape(-1)).mean()
                + 0.5 * (v - returns.reshape(-1)).pow(2).mean()
                - ent_coef * dist.entropy().mean())
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
        optimizer.step()
        if update % 10 == 0:
            print(f"update {update:3d}  mean reward {rewards.mean().item():+.3f}")


if __name__ == "__main__":
    main()
