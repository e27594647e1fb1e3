"""PPO with GAE on a small vectorised numpy environment (cleanrl-style single file)."""
import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class VecBandit:
    """N independent contextual bandit envs stepped together, numpy in and out."""

    def __init__(self, num_envs, obs_dim=4, n_actions=3, seed=0):
        self.rng = np.random.default_rng(seed)
        self.num_envs, self.obs_dim, self.n_actions = num_envs, obs_dim, n_actions
        self.w = self.rng.normal(size=(obs_dim, n_actions)).astype(np.float32)
        self.t = np.zeros(num_envs, dtype=np.int64)

    def reset(self):
        self.obs = self.rng.normal(size=(self.num_envs, self.obs_dim)).astype(np.float32)
        return self.obs

    def step(self, actions):
        best = (self.obs @ self.w).argmax(axis=1)
        rewards = (actions == best).astype(np.float32)
        self.t += 1
        dones = (self.t % 16 == 0).astype(np.float32)
        self.obs = self.rng.normal(size=(self.num_envs, self.obs_dim)).astype(np.float32)
        return self.obs, rewards, dones


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.critic = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.actor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_actions))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        dist = Categorical(logits=self.actor(x))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(x)


@dataclass
class Config:
    num_envs: int = 4
    num_steps: int = 32
    updates: int = 5
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_coef: float = 0.2
    epochs: int = 2
    minibatches: int = 4
    lr: float = 2.5e-4


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=5)
    cfg = Config(updates=parser.parse_args().updates)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    envs = VecBandit(cfg.num_envs)
    agent = Agent(envs.obs_dim, envs.n_actions).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.lr, eps=1e-5)

    obs = torch.zeros((cfg.num_steps, cfg.num_envs, envs.obs_dim), device=device)
    actions = torch.zeros((cfg.num_steps, cfg.num_envs), dtype=torch.long, device=device)
    logprobs = torch.zeros((cfg.num_steps, cfg.num_envs), device=device)
    rewards = torch.zeros((cfg.num_steps, cfg.num_envs), device=device)
    dones = torch.zeros((cfg.num_steps, cfg.num_envs), device=device)
    values = torch.zeros((cfg.num_steps, cfg.num_envs), device=device)

    next_obs = torch.tensor(envs.reset(), device=device)
    next_done = torch.zeros(cfg.num_envs, device=device)

    for update in range(cfg.updates):
        for step in range(cfg.num_steps):
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            o, r, d = envs.step(action.cpu().numpy())
            rewards[step] = torch.tensor(r, device=device)
            next_obs = torch.tensor(o, device=device)
            next_done = torch.tensor(d, device=device)

        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards)
            lastgaelam = 0
            for t in reversed(range(cfg.num_steps)):
                if t == cfg.num_steps - 1:
                    nextnonterminal = 1.0 - next_done
                    nextvalues = next_value
                else:
                    nextnonterminal = 1.0 - dones[t + 1]
                    nextvalues = values[t + 1]
                delta = rewards[t] + cfg.gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + cfg.gamma * cfg.gae_lambda * nextnonterminal * lastgaelam
            returns = advantages + values

        b_obs = obs.reshape(-1, envs.obs_dim)
        b_actions = actions.reshape(-1)
        b_logprobs = logprobs.reshape(-1)
        b_adv = advantages.reshape(-1)
        b_returns = returns.reshape(-1)
        batch = cfg.num_steps * cfg.num_envs
        mb = batch // cfg.minibatches
        for _ in range(cfg.epochs):
            perm = torch.randperm(batch, device=device)
            for start in range(0, batch, mb):
                idx = perm[start:start + mb]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[idx], b_actions[idx])
                ratio = (newlogprob - b_logprobs[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
                v_loss = 0.5 * ((newvalue.view(-1) - b_returns[idx]) ** 2).mean()
                loss = pg_loss + 0.5 * v_loss - 0.01 * entropy.mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        print(f"update {update} mean reward {rewards.mean().item():.3f} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
