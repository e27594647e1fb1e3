"""PPO with GAE over a batch of synchronous toy environments (cleanrl layout).

    python i_ppo_gae_vecenv.py --num-envs 4 --num-steps 32 --updates 3
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class PointEnv:
    """Walk on a line towards a goal at +5; 3 actions (left, stay, right)."""

    def __init__(self, rng):
        self.rng = rng

    def reset(self):
        self.x = float(self.rng.uniform(-5, 5))
        self.t = 0
        return np.array([self.x / 5.0, 0.0], dtype=np.float32)

    def step(self, a):
        self.x += (a - 1) * 0.5
        self.t += 1
        dist = abs(self.x - 5.0)
        done = dist < 0.5 or self.t >= 50
        return np.array([self.x / 5.0, self.t / 50.0], dtype=np.float32), -dist / 10.0, done


class SyncVecEnv:
    def __init__(self, n, seed=0):
        self.envs = [PointEnv(np.random.default_rng(seed + i)) for i in range(n)]
        self.num_envs = n

    def reset(self):
        return np.stack([e.reset() for e in self.envs])

    def step(self, actions):
        obs, rews, dones = [], [], []
        for env, a in zip(self.envs, actions):
            o, r, d = env.step(int(a))
            if d:
                o = env.reset()
            obs.append(o); rews.append(r); dones.append(d)
        return np.stack(obs), np.array(rews, dtype=np.float32), np.array(dones, dtype=np.float32)


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


def compute_gae(agent, next_obs, next_done, rewards, dones, values, gamma, gae_lambda):
    with torch.no_grad():
        next_value = agent.get_value(next_obs).flatten()
    num_steps = rewards.shape[0]
    advantages = torch.zeros(rewards.shape)  # expect: DEV006
    lastgaelam = 0
    for t in reversed(range(num_steps)):
        if t == num_steps - 1:
            nextnonterminal = 1.0 - next_done
            nextvalues = next_value
        else:
            nextnonterminal = 1.0 - dones[t + 1]
            nextvalues = values[t + 1]
        delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
        advantages[t] = lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
    returns = advantages + values
    return advantages, returns


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--num-envs", type=int, default=4)
    p.add_argument("--num-steps", type=int, default=32)
    p.add_argument("--updates", type=int, default=3)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--update-epochs", type=int, default=2)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--cuda", type=int, default=1)
    args = p.parse_args()

    torch.manual_seed(1)
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    envs = SyncVecEnv(args.num_envs)
    obs_dim, n_actions = 2, 3
    agent = Agent(obs_dim, n_actions).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs, obs_dim)).to(device)
    actions = torch.zeros((args.num_steps, args.num_envs)).to(device)
    logprobs = torch.zeros((args.num_steps, args.num_envs)).to(device)
    rewards = torch.zeros((args.num_steps, args.num_envs)).to(device)
    dones = torch.zeros((args.num_steps, args.num_envs)).to(device)
    values = torch.zeros((args.num_steps, args.num_envs)).to(device)

    next_obs = torch.Tensor(envs.reset()).to(device)
    next_done = torch.zeros(args.num_envs).to(device)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.minibatches

    for update in range(1, args.updates + 1):
        for step in range(args.num_steps):
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
                values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            next_obs_np, reward, done = envs.step(action.cpu().numpy())
            rewards[step] = torch.tensor(reward).to(device).view(-1)
            next_obs = torch.Tensor(next_obs_np).to(device)
            next_done = torch.Tensor(done)  # expect: DEV006

        advantages, returns = compute_gae(agent, next_obs, next_done, rewards, dones, values,
                                          args.gamma, args.gae_lambda)

        b_obs = obs.reshape((-1, obs_dim))
        b_logprobs = logprobs.reshape(-1)
        b_actions = actions.reshape(-1)
        b_advantages = advantages.reshape(-1)
        b_returns = returns.reshape(-1)

        b_inds = np.arange(batch_size)
        for epoch in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for start in range(0, batch_size, minibatch_size):
                mb = b_inds[start:start + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions.long()[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                mb_adv = b_advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio,
                                    -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((newvalue.view(-1) - b_returns[mb]) ** 2).mean()
                loss = pg_loss - 0.01 * entropy.mean() + 0.5 * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        print(f"update {update}  mean reward {rewards.mean().item():.3f}  v_loss {v_loss.item():.3f}")


if __name__ == "__main__":
    main()
