"""Train the Rainbow-lite agent on a batch of toy environments."""
import argparse

import numpy as np
import torch

from rlkit import PrioritizedReplay, RainbowLiteAgent


class ToyVecEnv:
    def __init__(self, n_envs=4, obs_dim=5, n_actions=3, seed=0):
        self.n, self.obs_dim, self.n_actions = n_envs, obs_dim, n_actions
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.o = self.rng.normal(size=(self.n, self.obs_dim)).astype(np.float32)
        return self.o

    def step(self, actions):
        r = (actions == self.o[:, : self.n_actions].argmax(1)).astype(np.float32)
        d = (self.rng.random(self.n) < 0.05).astype(np.float32)
        return self.reset(), r, d


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--batch-size", type=int, default=32)
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    env = ToyVecEnv()
    agent = RainbowLiteAgent(env.obs_dim, env.n_actions, device)
    buf = PrioritizedReplay(5000, env.obs_dim, device)
    obs = env.reset()
    for step in range(args.steps):
        actions = agent.act(obs)
        next_obs, rew, done = env.step(actions)
        for i in range(env.n):
            buf.add(obs[i], actions[i], rew[i], next_obs[i], done[i])
        obs = next_obs
        if buf.size >= 256:
            batch, idx = buf.sample(args.batch_size, beta=min(1.0, 0.4 + step / args.steps))
            loss, td = agent.learn(batch)
            buf.update_priorities(idx, td)
            if step % 100 == 0:
                print(f"step {step} loss {loss:.4f}")
        if step % 200 == 0:
            agent.sync()


if __name__ == "__main__":
    main()
