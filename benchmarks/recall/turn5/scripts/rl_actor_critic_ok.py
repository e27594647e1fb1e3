"""Actor-critic with a NumPy observation normaliser, done right: returns made on the device,
importance weights moved, actions handed to the environment as Python numbers."""
import argparse

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn


class RunningNorm:
    def __init__(self, dim):
        self.mean, self.var, self.n = np.zeros(dim), np.ones(dim), 1e-4

    def __call__(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.var += (delta * (x - self.mean) - self.var) / self.n
        return (x - self.mean) / np.sqrt(self.var + 1e-8)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=4, n_act=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.pi, self.v = nn.Linear(64, n_act), nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--gamma", type=float, default=0.99)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env, norm = gym.make("CartPole-v1"), RunningNorm(4)
    model = ActorCritic().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    for ep in range(args.episodes):
        obs, _ = env.reset()
        log_probs, values, rewards = [], [], []
        done = False
        while not done:
            x = torch.as_tensor(norm(obs), dtype=torch.float32, device=device)
            dist, value = model(x)
            action = dist.sample()
            obs, r, term, trunc, _ = env.step(action.item())
            log_probs.append(dist.log_prob(action))
            values.append(value)
            rewards.append(r)
            done = term or trunc
        g, rets = 0.0, []
        for r in reversed(rewards):
            g = r + args.gamma * g
            rets.append(g)
        returns = torch.tensor(rets[::-1], dtype=torch.float32, device=device)
        weights = torch.from_numpy(np.linspace(0.5, 1.0, len(rets), dtype=np.float32)).to(device)
        adv = returns - torch.stack(values)
        loss = -(torch.stack(log_probs) * adv.detach() * weights).mean() + 0.5 * adv.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if ep % 50 == 0:
            print(ep, sum(rewards), np.round(norm.mean, 2))


if __name__ == "__main__":
    main()
