"""Gym-style NumPy environment: keep a pendulum-like bar upright with a discrete torque.

Part of a small PPO project written as a correct look-alike of the RL device threads ("can't
convert cuda:0 device type tensor to numpy" from `env.step`, habitat-lab "Add warning for actions
that are CUDA tensors", genrl "Torch Wrapper for Rollout Buffer").
"""
import math

import numpy as np


class BarBalance:
    n_actions = 3
    obs_dim = 3

    def __init__(self, seed=0, horizon=100):
        self.rng = np.random.default_rng(seed)
        self.horizon = horizon

    def reset(self):
        self.theta = self.rng.uniform(-0.3, 0.3)
        self.omega = 0.0
        self.t = 0
        return self._obs()

    def _obs(self):
        return np.array([math.cos(self.theta), math.sin(self.theta), self.omega], dtype=np.float32)

    def step(self, action):
        torque = (int(action) - 1) * 2.0
        self.omega = float(np.clip(self.omega + 0.05 * (9.8 * math.sin(self.theta) + torque), -8, 8))
        self.theta = (self.theta + 0.05 * self.omega + math.pi) % (2 * math.pi) - math.pi
        self.t += 1
        reward = math.cos(self.theta) - 0.01 * abs(torque)
        done = self.t >= self.horizon or abs(self.theta) > 1.2
        return self._obs(), reward, done, {}
