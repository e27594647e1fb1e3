"""REINFORCE on CartPole with gymnasium: numpy observations turned into tensors for a policy on the GPU."""
import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Policy(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, n_actions))

    def forward(self, obs):
        return Categorical(logits=self.net(obs))


def main(episodes=300, gamma=0.99):
    env = gym.make("CartPole-v1")
    policy = Policy().to(device)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for ep in range(episodes):
        obs, _ = env.reset(seed=ep)
        log_probs, rewards, done = [], [], False
        while not done:
            state = torch.from_numpy(obs).float().unsqueeze(0)  # expect: DEV006
            dist = policy(state)  # also: DEV002
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            obs, reward, terminated, truncated, _ = env.step(action.item())
            rewards.append(reward)
            done = terminated or truncated
        returns, g = [], 0.0
        for r in reversed(rewards):
            g = r + gamma * g
            returns.insert(0, g)
        returns = torch.tensor(returns, device=device)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        loss = -(torch.cat(log_probs) * returns).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if ep % 20 == 0:
            print(ep, np.sum(rewards))


if __name__ == "__main__":
    main()
