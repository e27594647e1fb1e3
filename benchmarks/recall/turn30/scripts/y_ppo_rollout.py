"""PPO with GAE on a batch of toy bandit-walk environments (numpy), CleanRL-like layout."""
import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class VecWalk:
    """N independent random walks on a line; action 0/1 moves left/right, goal at +5."""

    def __init__(self, num_envs, seed=0):
        self.rng = np.random.default_rng(seed)
        self.num_envs = num_envs
        self.pos = np.zeros(num_envs)

    def obs(self):
        return np.stack([self.pos / 5.0, np.ones(self.num_envs)], axis=1).astype(np.float32)

    def reset(self):
        self.pos = np.zeros(self.num_envs)
        return self.obs()

    def step(self, actions):
        self.pos += np.where(actions == 1, 1.0, -1.0)
        done = np.abs(self.pos) >= 5
        reward = np.where(self.pos >= 5, 1.0, -0.01)
        self.pos[done] = 0.0
        return self.obs(), reward.astype(np.float32), done.astype(np.float32)


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.pi = nn.Linear(64, n_actions)
        self.v = nn.Linear(64, 1)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.v(h).squeeze(-1)


@dataclass
class PPOConfig:
    num_envs: int = 8
    num_steps: int = 32
    iterations: int = 5
    update_epochs: int = 3
    minibatches: int = 4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2


def compute_gae(rewards, values, dones, last_value, gamma, lam):
    """rewards, values, dones: numpy arrays (T, N); last_value: numpy (N,)."""
    T = rewards.shape[0]
    adv = np.zeros_like(rewards)
    last_gae = np.zeros(rewards.shape[1], dtype=np.float32)
    for t in reversed(range(T)):
        next_value = last_value if t == T - 1 else values[t + 1]
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_value * nonterminal - values[t]
        last_gae = delta + gamma * lam * nonterminal * last_gae
        adv[t] = last_gae
    return adv


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuda", action="store_true", default=True)
    args = parser.parse_args()
    cfg = PPOConfig()
    device = torch.device("cuda" if args.cuda and torch.cuda.is_available() else "cpu")

    envs = VecWalk(cfg.num_envs)
    agent = Agent(2, 2).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=3e-4)
    T, N = cfg.num_steps, cfg.num_envs
    obs_buf = torch.zeros((T, N, 2), device=device)
    act_buf = torch.zeros((T, N), dtype=torch.long, device=device)
    logp_buf = torch.zeros((T, N), device=device)
    val_buf = torch.zeros((T, N), device=device)
    rew_np = np.zeros((T, N), dtype=np.float32)
    done_np = np.zeros((T, N), dtype=np.float32)

    next_obs = torch.as_tensor(envs.reset(), device=device)
    for it in range(cfg.iterations):
        agent.eval()
        for t in range(T):
            with torch.no_grad():
                logits, value = agent(next_obs)
                dist = Categorical(logits=logits)
                action = dist.sample()
            obs_buf[t], act_buf[t] = next_obs, action
            logp_buf[t], val_buf[t] = dist.log_prob(action), value
            obs_np, rew_np[t], done_np[t] = envs.step(action.numpy())  # expect: DEV011
            next_obs = torch.as_tensor(obs_np, device=device)

        with torch.no_grad():
            _, last_value = agent(next_obs)
        adv_np = compute_gae(rew_np, val_buf.cpu().numpy(), done_np, last_value.cpu().numpy(),
                             cfg.gamma, cfg.gae_lambda)
        advantages = torch.from_numpy(adv_np)  # expect: DEV006
        returns = advantages + val_buf

        b_obs, b_act = obs_buf.reshape(-1, 2), act_buf.reshape(-1)
        b_logp, b_adv, b_ret = logp_buf.reshape(-1), advantages.reshape(-1), returns.reshape(-1)
        mb_size = T * N // cfg.minibatches
        for epoch in range(cfg.update_epochs):
            agent.train()
            agent.to(device)  # expect: DEV007
            perm = torch.randperm(T * N, device=device)
            for start in range(0, T * N, mb_size):
                mb = perm[start:start + mb_size]
                logits, value = agent(b_obs[mb])
                dist = Categorical(logits=logits)
                ratio = (dist.log_prob(b_act[mb]) - b_logp[mb]).exp()
                mb_adv = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std() + 1e-8)
                pg_loss = -torch.min(ratio * mb_adv, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * mb_adv).mean()
                v_loss = 0.5 * (value - b_ret[mb]).pow(2).mean()
                loss = pg_loss + 0.5 * v_loss - 0.01 * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        print(f"iter {it} mean reward {rew_np.mean():.3f} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
