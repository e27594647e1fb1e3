"""Evaluating a trained actor on a NumPy environment: each observation is turned into a tensor
and handed to the actor."""
import numpy as np
import torch
import torch.nn as nn


class PointEnv:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.pos = self.rng.uniform(-1, 1, size=2).astype(np.float32)
        return self.pos.copy()

    def step(self, action):
        self.pos = np.clip(self.pos + 0.1 * action, -2, 2).astype(np.float32)
        return self.pos.copy(), -float(np.linalg.norm(self.pos)), bool(np.linalg.norm(self.pos) < 0.05)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    actor = nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 2), nn.Tanh()).to(device)
    actor.eval()
    env = PointEnv()
    total = 0.0
    for ep in range(5):
        obs = env.reset()
        for t in range(50):
            obs_t = torch.from_numpy(obs).unsqueeze(0)  # expect: DEV006
            with torch.no_grad():
                action = actor(obs_t).squeeze(0).cpu().numpy()
            obs, r, done = env.step(action)
            total += r
            if done:
                break
    print(total / 5)


if __name__ == "__main__":
    main()
