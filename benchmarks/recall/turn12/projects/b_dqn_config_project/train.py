"""Train a dueling DQN on the toy grid world: python train.py --total-steps 1500"""
import random

import numpy as np
import torch
import torch.nn.functional as F

from config import DQNConfig
from logger import TrainLogger
from networks import build_q_networks, count_parameters, greedy_action, sync_target
from rollout import GridWorld, ReplayBuffer


def main(argv=None):
    cfg = DQNConfig.from_args(argv)
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    device = torch.device(cfg.device)
    print(cfg.describe())

    env = GridWorld(cfg.grid_size, seed=cfg.seed)
    buffer = ReplayBuffer(cfg.buffer_size, env.obs_dim, seed=cfg.seed)
    online, target = build_q_networks(env.obs_dim, 4, cfg.hidden)
    online.to(device)
    optimizer = torch.optim.Adam(online.parameters(), lr=cfg.lr)
    log = TrainLogger(cfg.log_every)
    print(f"online network: {count_parameters(online)} parameters on {device}")

    obs, eps, ep_return, loss_value = env.reset(), cfg.eps_start, 0.0, None
    for step in range(cfg.total_steps):
        if random.random() < eps:
            action = random.randrange(4)
        else:
            with torch.no_grad():
                q = online(torch.as_tensor(obs, device=device).unsqueeze(0))
            log.log_q(step, q)
            action = greedy_action(q)
        next_obs, reward, done = env.step(action)
        buffer.push(obs, action, reward, next_obs, done)
        ep_return += reward
        if done:
            log.log_episode(ep_return)
            obs, ep_return = env.reset(), 0.0
        else:
            obs = next_obs
        eps = max(cfg.eps_end, eps * cfg.eps_decay)

        if len(buffer) >= cfg.learn_start:
            obs_b, actions, rewards, next_obs_b, dones = buffer.sample(cfg.batch_size)
            q_values = online(obs_b)  # expect: DEV002
            q_sa = q_values.gather(1, actions.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                next_q = target(next_obs_b).max(dim=1).values
                td_target = rewards + cfg.gamma * (1.0 - dones) * next_q
            loss = F.smooth_l1_loss(q_sa, td_target)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(online.parameters(), 10.0)
            optimizer.step()
            loss_value = loss.item()
        if step % cfg.target_sync == 0:
            sync_target(online, target)
        log.maybe_print(step, eps, loss_value)

    print(log.summary())


if __name__ == "__main__":
    main()
