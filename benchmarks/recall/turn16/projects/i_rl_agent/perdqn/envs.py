import numpy as np


class Corridor:
    """Start in the middle of a corridor; reward +1 at the right end, -1 at the left."""

    n_actions = 2

    def __init__(self, length=9, max_steps=40, seed=0):
        self.length = length
        self.obs_dim = length
        self.max_steps = max_steps
        self.rng = np.random.default_rng(seed)

    def _obs(self):
        o = np.zeros(self.length, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def reset(self):
        self.pos = self.length // 2 + int(self.rng.integers(-1, 2))
        self.t = 0
        return self._obs()

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        self.t += 1
        if self.pos >= self.length - 1:
            self.pos = self.length - 1
            return self._obs(), 1.0, True
        if self.pos <= 0:
            self.pos = 0
            return self._obs(), -1.0, True
        return self._obs(), -0.01, self.t >= self.max_steps
