"""Greedy roll-outs of the actor, no exploration noise."""
import numpy as np
import torch


class PointMass:
    """Move a point towards the origin; reward is minus the distance."""

    def __init__(self, seed=0, horizon=30):
        self.rng = np.random.default_rng(seed)
        self.horizon = horizon

    def reset(self):
        self.t = 0
        self.pos = self.rng.uniform(-1, 1, size=2).astype(np.float32)
        return self.pos.copy()

    def step(self, action):
        self.pos = np.clip(self.pos + action, -2, 2).astype(np.float32)
        self.t += 1
        reward = -float(np.linalg.norm(self.pos))
        return self.pos.copy(), reward, self.t >= self.horizon


@torch.no_grad()
def evaluate(actor, episodes=3, seed=123):
    env = PointMass(seed=seed)
    returns = []
    for _ in range(episodes):
        obs, done, total = env.reset(), False, 0.0
        while not done:
            obs_t = torch.from_numpy(obs).unsqueeze(0)  # expect: DEV006
            action = actor(obs_t)[0].cpu().numpy()
            obs, reward, done = env.step(action)
            total += reward
        returns.append(total)
    return float(np.mean(returns))
