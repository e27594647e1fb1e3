"""DDPG actor rollout on Pendulum: actions from the actor are handed to the environment."""
import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim=3, act_dim=1, max_action=2.0):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                                 nn.Linear(256, act_dim), nn.Tanh())
        self.max_action = max_action

    def forward(self, obs):
        return self.max_action * self.net(obs)


def rollout(actor, env, device, noise_std=0.1, steps=200):
    obs, _ = env.reset()
    total = 0.0
    for _ in range(steps):
        with torch.no_grad():
            action = actor(torch.as_tensor(obs, dtype=torch.float32, device=device))
        action = action.numpy() + np.random.normal(0, noise_std, size=1)  # expect: DEV011
        obs, reward, terminated, truncated, _ = env.step(np.clip(action, -2.0, 2.0))
        total += reward
        if terminated or truncated:
            break
    return total


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    actor = Actor().to(dev)
    print(rollout(actor, gym.make("Pendulum-v1"), dev))
