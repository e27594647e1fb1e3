import numpy as np


class KeyDoorCorridor:
    """Corridor with a key at the left end and a door at the right end.

    Observation: one-hot position concatenated with a has-key flag.
    Actions: 0 = left, 1 = right. Reward 1 for opening the door with the key.
    """

    def __init__(self, length=7, max_steps=60, seed=0):
        self.length = length
        self.max_steps = max_steps
        self.rng = np.random.default_rng(seed)
        self.obs_dim = length + 1
        self.n_actions = 2

    def _obs(self):
        obs = np.zeros(self.obs_dim, dtype=np.float32)
        obs[self.pos] = 1.0
        obs[-1] = float(self.has_key)
        return obs

    def reset(self):
        self.pos = int(self.rng.integers(1, self.length - 1))
        self.has_key = False
        self.t = 0
        return self._obs()

    def step(self, action):
        self.pos = int(np.clip(self.pos + (1 if action == 1 else -1), 0, self.length - 1))
        self.t += 1
        if self.pos == 0:
            self.has_key = True
        opened = self.pos == self.length - 1 and self.has_key
        reward = 1.0 if opened else -0.01
        done = opened or self.t >= self.max_steps
        return self._obs(), reward, done
