"""Minimal PPO (clip objective, GAE) on a batch of toy target-reaching envs."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class VecReachEnv:
    """n_envs copies of a 1-D reach task; obs = (position, goal), actions = left/stay/right."""

    def __init__(self, n_envs, seed=0):
        self.n_envs = n_envs
        self.rng = np.random.default_rng(seed)
        self.obs_dim, self.n_actions = 2, 3
        self.pos = np.zeros(n_envs, dtype=np.float32)
        self.goal = np.zeros(n_envs, dtype=np.float32)
        self.t = np.zeros(n_envs, dtype=np.int64)

    def _reset_idx(self, idx):
        self.pos[idx] = self.rng.uniform(-1, 1, size=len(idx))
        self.goal[idx] = self.rng.uniform(-1, 1, size=len(idx))
        self.t[idx] = 0

    def reset(self):
        self._reset_idx(np.arange(self.n_envs))
        return np.stack([self.pos, self.goal], axis=1)

    def step(self, actions):
        self.pos = np.clip(self.pos + 0.1 * (actions - 1), -1.0, 1.0).astype(np.float32)
        self.t += 1
        dist = np.abs(self.pos - self.goal)
        rewards = (-dist).astype(np.float32)
        dones = (dist < 0.05) | (self.t >= 50)
        rewards[dist < 0.05] += 1.0
        if dones.any():
            self._reset_idx(np.flatnonzero(dones))
        return np.stack([self.pos, self.goal], axis=1), rewards, dones.astype(np.float32)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.shared(obs)
        return self.pi(h), self.v(h).squeeze(-1)


class RolloutStorage:
    def __init__(self, n_steps, n_envs, obs_dim, device):
        self.obs = torch.zeros(n_steps, n_envs, obs_dim, device=device)
        self.actions = torch.zeros(n_steps, n_envs, dtype=torch.long, device=device)
        self.log_probs = torch.zeros(n_steps, n_envs, device=device)
        self.values = torch.zeros(n_steps, n_envs, device=device)
        self.rewards = torch.zeros(n_steps, n_envs, device=device)
        self.dones = torch.zeros(n_steps, n_envs, device=device)
        self.device = device

    def insert(self, step, obs, action, log_prob, value, reward, done):
        self.obs[step] = torch.as_tensor(obs, device=self.device)
        self.actions[step] = action
        self.log_probs[step] = log_prob
        self.values[step] = value
        self.rewards[step] = torch.as_tensor(reward, device=self.device)
        self.dones[step] = torch.as_tensor(done, device=self.device)

    def compute_gae(self, last_value, gamma, lam):
        advantages = torch.zeros_like(self.rewards)
        gae = torch.zeros_like(last_value)
        n_steps = self.rewards.size(0)
        for t in reversed(range(n_steps)):
            next_value = last_value if t == n_steps - 1 else self.values[t + 1]
            not_done = 1.0 - self.dones[t]
            delta = self.rewards[t] + gamma * next_value * not_done - self.values[t]
            gae = delta + gamma * lam * not_done * gae
            advantages[t] = gae
        return advantages, advantages + self.values


class PPOAgent:
    def __init__(self, net, device, lr=3e-4, clip=0.2, epochs=4, minibatch=64):
        self.net = net
        self.device = device
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr)
        self.clip, self.epochs, self.minibatch = clip, epochs, minibatch

    def act(self, obs):
        obs_t = torch.as_tensor(obs, dtype=torch.float32)  # also: DEV006
        obs_t.to(self.device)  # expect: DEV005
        with torch.no_grad():
            logits, value = self.net(obs_t)
        dist = Categorical(logits=logits)
        action = dist.sample()
        return action, dist.log_prob(action), value

    def value(self, obs):
        with torch.no_grad():
            _, v = self.net(torch.as_tensor(obs, dtype=torch.float32, device=self.device))
        return v

    def update(self, storage, advantages, returns):
        obs = storage.obs.flatten(0, 1)
        actions = storage.actions.flatten()
        old_log_probs = storage.log_probs.flatten()
        adv = advantages.flatten()
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        ret = returns.flatten()
        n = obs.size(0)
        for _ in range(self.epochs):
            perm = torch.randperm(n, device=self.device)
            for start in range(0, n, self.minibatch):
                idx = perm[start:start + self.minibatch]
                self.net.to(self.device)  # expect: DEV007
                logits, values = self.net(obs[idx])
                dist = Categorical(logits=logits)
                ratio = torch.exp(dist.log_prob(actions[idx]) - old_log_probs[idx])
                surr = torch.min(ratio * adv[idx], torch.clamp(ratio, 1 - self.clip, 1 + self.clip) * adv[idx])
                loss = -surr.mean() + 0.5 * (ret[idx] - values).pow(2).mean() - 0.01 * dist.entropy().mean()
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
                self.optimizer.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n-envs", type=int, default=8)
    parser.add_argument("--n-steps", type=int, default=32)
    parser.add_argument("--updates", type=int, default=10)
    parser.add_argument("--cuda", action="store_true", help="train on the GPU if there is one")
    args = parser.parse_args()

    device = torch.device("cuda" if args.cuda and torch.cuda.is_available() else "cpu")
    torch.manual_seed(1)
    env = VecReachEnv(args.n_envs, seed=1)
    net = ActorCritic(env.obs_dim, env.n_actions).to(device)
    agent = PPOAgent(net, device)
    storage = RolloutStorage(args.n_steps, args.n_envs, env.obs_dim, device)

    obs = env.reset()
    for update in range(args.updates):
        for step in range(args.n_steps):
            action, log_prob, value = agent.act(obs)
            next_obs, reward, done = env.step(action.cpu().numpy())
            storage.insert(step, obs, action, log_prob, value, reward, done)
            obs = next_obs
        advantages, returns = storage.compute_gae(agent.value(obs), gamma=0.99, lam=0.95)
        agent.update(storage, advantages, returns)
        print(f"update {update}  mean reward {storage.rewards.mean().item():.3f}")


if __name__ == "__main__":
    main()
