"""A tiny chain MDP: walk right to reach the rewarding end state."""
import numpy as np


class ChainEnv:
    def __init__(self, n_states=6, max_steps=20):
        self.n_states, self.max_steps = n_states, max_steps
        self.n_actions = 2

    def _obs(self):
        obs = np.zeros(self.n_states, dtype=np.float32)
        obs[self.pos] = 1.0
        return obs

    def reset(self):
        self.pos, self.t = 0, 0
        return self._obs()

    def step(self, action):
        self.t += 1
        self.pos = min(self.pos + 1, self.n_states - 1) if action == 1 else max(self.pos - 1, 0)
        done = self.pos == self.n_states - 1 or self.t >= self.max_steps
        reward = 1.0 if self.pos == self.n_states - 1 else -0.01
        return self._obs(), reward, done
