"""Train a prioritized-replay DQN on the corridor task.

    python train.py --steps 1500 --save /tmp/perdqn.pt
    python train.py --resume /tmp/perdqn.pt --steps 500
"""
import argparse

import numpy as np
import torch

from perdqn import Config, Corridor, DQNAgent, PrioritizedReplay
from perdqn.evaluate import evaluate


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=Config.total_steps)
    p.add_argument("--resume", default="")
    p.add_argument("--save", default="")
    p.add_argument("--device", default=None)
    a = p.parse_args()
    cfg = Config(total_steps=a.steps, resume=a.resume, save_path=a.save)
    if a.device:
        cfg.device = a.device
    return cfg


def main():
    cfg = parse_args()
    np.random.seed(0)
    torch.manual_seed(0)
    env, eval_env = Corridor(seed=0), Corridor(seed=1)
    agent = DQNAgent(env.obs_dim, env.n_actions, cfg)
    start = 0
    if cfg.resume:
        start = agent.load(cfg.resume)
        print(f"resumed at step {start}")
    agent.to(cfg.device)
    buffer = PrioritizedReplay(cfg.buffer_size, env.obs_dim, agent.device, alpha=cfg.alpha)

    obs = env.reset()
    for step in range(start, start + cfg.total_steps):
        frac = min(1.0, (step - start) / cfg.eps_decay_steps)
        eps = 1.0 + frac * (0.05 - 1.0)
        action = agent.act(obs, eps)
        next_obs, reward, done = env.step(action)
        buffer.add(obs, action, reward, next_obs, done)
        obs = env.reset() if done else next_obs

        if len(buffer) >= cfg.learning_starts:
            beta = cfg.beta_start + (1.0 - cfg.beta_start) * (step - start) / cfg.total_steps
            batch, idx = buffer.sample(cfg.batch_size, beta)
            loss, td = agent.learn(batch)
            buffer.update_priorities(idx, td)
            if step % 500 == 0:
                mean_ret, mean_q = evaluate(agent, eval_env, cfg.eval_episodes)
                print(f"step {step:5d} loss {loss:.4f} eval return {mean_ret:+.2f} mean max-Q {mean_q:.3f}")

    if cfg.save_path:
        agent.save(cfg.save_path, start + cfg.total_steps)
        print("saved", cfg.save_path)


if __name__ == "__main__":
    main()
