import numpy as np

from agent import DQNAgent
from buffer import ReplayBuffer
from config import DQNConfig


def toy_env_step(obs, action):
    next_obs = (obs + (0.1 if action else -0.1) + 0.05 * np.random.randn(obs.size)).astype(np.float32)
    reward = 1.0 - float(np.abs(next_obs).mean())
    return next_obs, reward, bool(np.abs(next_obs).max() > 2.0)


def main():
    cfg = DQNConfig()
    agent = DQNAgent(cfg)
    buffer = ReplayBuffer(cfg.capacity, cfg.obs_dim, cfg.device)
    obs = np.zeros(cfg.obs_dim, dtype=np.float32)
    losses = []
    for step in range(300):
        action = agent.act(obs, epsilon=max(0.05, 1.0 - step / 200))
        next_obs, reward, done = toy_env_step(obs, action)
        buffer.add(obs, action, reward, next_obs, done)
        obs = np.zeros(cfg.obs_dim, dtype=np.float32) if done else next_obs
        if buffer.size >= cfg.batch_size:
            losses.append(agent.learn(buffer.sample(cfg.batch_size)))
        if step % 50 == 0:
            agent.sync()
    print("mean loss", float(np.mean(losses)))


if __name__ == "__main__":
    main()
