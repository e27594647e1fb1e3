"""Advantage actor-critic on CartPole: returns are discounted in a Python loop at the end of each
episode and compared with the critic's values."""
import argparse

import gymnasium as gym
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=4, n_act=2, hidden=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_act)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def discount(rewards, gamma):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    return out[::-1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=500)
    parser.add_argument("--gamma", type=float, default=0.99)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = gym.make("CartPole-v1")
    model = ActorCritic().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)

    for ep in range(args.episodes):
        obs, _ = env.reset()
        log_probs, values, rewards, entropies = [], [], [], []
        done = False
        while not done:
            dist, value = model(torch.as_tensor(obs, dtype=torch.float32, device=device))
            action = dist.sample()
            obs, r, term, trunc, _ = env.step(action.item())
            log_probs.append(dist.log_prob(action))
            entropies.append(dist.entropy())
            values.append(value)
            rewards.append(r)
            done = term or trunc
        returns = torch.tensor(discount(rewards, args.gamma))  # expect: DEV006
        values = torch.stack(values)
        advantage = returns - values
        policy_loss = -(torch.stack(log_probs) * advantage.detach()).mean()
        loss = policy_loss + 0.5 * advantage.pow(2).mean() - 0.01 * torch.stack(entropies).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if ep % 50 == 0:
            print(ep, sum(rewards))


if __name__ == "__main__":
    main()
