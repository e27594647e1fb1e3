"""Train the DQN agent on the key/door corridor.

    python train.py
    python train.py --steps 3000 --device cuda:0
"""
import argparse
from dataclasses import replace

import numpy as np
import torch

from rlagent import Agent, Config, ReplayBuffer
from rlagent.envs import KeyDoorCorridor
from rlagent.evaluate import evaluate, format_report


def parse_args():
    defaults = Config()
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=defaults.total_steps)
    parser.add_argument("--device", default=defaults.device)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    args = parser.parse_args()
    return replace(defaults, total_steps=args.steps, device=args.device, seed=args.seed)


def main():
    cfg = parse_args()
    torch.manual_seed(cfg.seed)
    env = KeyDoorCorridor(cfg.corridor_length, seed=cfg.seed)
    eval_env = KeyDoorCorridor(cfg.corridor_length, seed=cfg.seed + 1)
    agent = Agent(env.obs_dim, env.n_actions, cfg).to(cfg.device)
    buffer = ReplayBuffer(cfg.buffer_size, env.obs_dim, seed=cfg.seed)

    obs = env.reset()
    for step in range(1, cfg.total_steps + 1):
        frac = min(1.0, step / (0.7 * cfg.total_steps))
        epsilon = cfg.eps_start + frac * (cfg.eps_end - cfg.eps_start)
        action = agent.act(obs, epsilon)
        next_obs, reward, done = env.step(action)
        buffer.add(obs, action, reward, next_obs, float(done))
        obs = env.reset() if done else next_obs

        if step >= cfg.learn_start:
            agent.learn(buffer.sample(cfg.batch_size, agent.device))
        if step % cfg.target_sync == 0:
            agent.sync_target()
        if step % cfg.eval_every == 0:
            print(format_report(step, evaluate(agent, eval_env)))


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
