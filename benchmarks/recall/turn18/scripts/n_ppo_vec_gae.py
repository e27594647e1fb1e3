"""Minimal PPO (clipped) with a synchronous vector env, CleanRL-ish layout."""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class SyncVecEnv:
    """N independent copies of a tiny bandit-like env, numpy in / numpy out."""

    def __init__(self, num_envs, obs_dim=6, n_actions=2, horizon=16, seed=1):
        self.num_envs, self.obs_dim, self.n_actions = num_envs, obs_dim, n_actions
        self.horizon = horizon
        self.rng = np.random.default_rng(seed)
        self.t = np.zeros(num_envs, dtype=np.int64)

    def reset(self):
        self.t[:] = 0
        return self.rng.normal(size=(self.num_envs, self.obs_dim)).astype(np.float32)

    def step(self, actions):
        self.t += 1
        obs = self.rng.normal(size=(self.num_envs, self.obs_dim)).astype(np.float32)
        rewards = (actions == 0).astype(np.float32)
        dones = self.t >= self.horizon
        self.t[dones] = 0
        return obs, rewards, dones.astype(np.float32)


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(),
                                    layer_init(nn.Linear(64, 1), std=1.0))
        self.actor = nn.Sequential(layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(),
                                   layer_init(nn.Linear(64, n_actions), std=0.01))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        dist = Categorical(logits=self.actor(x))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(x)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--num-envs", type=int, default=4)
    p.add_argument("--num-steps", type=int, default=32)
    p.add_argument("--updates", type=int, default=3)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--cuda", action="store_true", default=True)
    return p.parse_args()


def main():
    args = parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    envs = SyncVecEnv(args.num_envs)
    agent = Agent(envs.obs_dim, envs.n_actions).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)

    shape = (args.num_steps, args.num_envs)
    obs = torch.zeros(shape + (envs.obs_dim,)).to(device)
    actions = torch.zeros(shape).to(device)
    logprobs = torch.zeros(shape).to(device)
    rewards = torch.zeros(shape).to(device)
    dones = torch.zeros(shape).to(device)
    values = torch.zeros(shape).to(device)

    next_obs = torch.Tensor(envs.reset()).to(device)
    next_done = torch.zeros(args.num_envs).to(device)

    for update in range(args.updates):
        for step in range(args.num_steps):
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
                values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            o, r, d = envs.step(action.cpu().numpy())
            rewards[step] = torch.tensor(r).to(device).view(-1)
            next_obs, next_done = torch.Tensor(o).to(device), torch.Tensor(d)  # expect: DEV006

        # bootstrap value if not done
        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards).to(device)
            lastgaelam = 0
            for t in reversed(range(args.num_steps)):
                if t == args.num_steps - 1:
                    nextnonterminal = 1.0 - next_done
                    nextvalues = next_value
                else:
                    nextnonterminal = 1.0 - dones[t + 1]
                    nextvalues = values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            returns = advantages + values

        b_obs = obs.reshape((-1, envs.obs_dim))
        b_actions = actions.reshape(-1)
        b_logprobs = logprobs.reshape(-1)
        b_adv = advantages.reshape(-1)
        b_returns = returns.reshape(-1)
        for _ in range(2):
            _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs, b_actions.long())
            ratio = (newlogprob - b_logprobs).exp()
            adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
            pg_loss = torch.max(-adv * ratio,
                                -adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
            v_loss = 0.5 * ((newvalue.view(-1) - b_returns) ** 2).mean()
            loss = pg_loss + 0.5 * v_loss - 0.01 * entropy.mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
        print(f"update {update} loss {loss.item():.4f} return {rewards.sum(0).mean().item():.2f}")


if __name__ == "__main__":
    main()
