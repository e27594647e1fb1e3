"""DDPG-style training loop: numpy replay buffer, Polyak-averaged target networks."""
import copy

import numpy as np
import torch
import torch.nn.functional as F

from config import Config
from evaluate import PointMass, evaluate
from models import Actor, Critic


class Replay:
    def __init__(self, size, obs_dim, act_dim):
        self.o = np.zeros((size, obs_dim), np.float32)
        self.a = np.zeros((size, act_dim), np.float32)
        self.r = np.zeros(size, np.float32)
        self.o2 = np.zeros((size, obs_dim), np.float32)
        self.d = np.zeros(size, np.float32)
        self.n, self.i, self.size = 0, 0, size

    def add(self, o, a, r, o2, d):
        self.o[self.i], self.a[self.i], self.r[self.i], self.o2[self.i], self.d[self.i] = o, a, r, o2, d
        self.i = (self.i + 1) % self.size
        self.n = min(self.n + 1, self.size)

    def sample(self, bs, device):
        idx = np.random.randint(0, self.n, bs)
        return [torch.as_tensor(arr[idx], device=device) for arr in (self.o, self.a, self.r, self.o2, self.d)]


@torch.no_grad()
def soft_update(target, source, tau):
    for tp, p in zip(target.parameters(), source.parameters()):
        tp.lerp_(p, tau)


def main(cfg: Config = Config()):
    torch.manual_seed(0)
    np.random.seed(0)
    device = cfg.device
    actor = Actor(cfg.obs_dim, cfg.act_dim, cfg.action_low, cfg.action_high, cfg.hidden).to(device)
    critic = Critic(cfg.obs_dim, cfg.act_dim, cfg.hidden).to(device)
    actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
    a_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    buf = Replay(cfg.buffer_size, cfg.obs_dim, cfg.act_dim)

    env = PointMass(seed=0)
    obs = env.reset()
    for step in range(cfg.steps):
        if step < cfg.warmup:
            action = np.random.uniform(cfg.action_low, cfg.action_high).astype(np.float32)
        else:
            with torch.no_grad():
                a = actor(torch.as_tensor(obs, device=device).unsqueeze(0))[0].cpu().numpy()
            action = np.clip(a + cfg.noise_std * np.random.randn(cfg.act_dim), cfg.action_low,
                             cfg.action_high).astype(np.float32)
        obs2, reward, done = env.step(action)
        buf.add(obs, action, reward, obs2, float(done))
        obs = env.reset() if done else obs2

        if buf.n >= cfg.batch_size:
            o, a, r, o2, d = buf.sample(cfg.batch_size, device)
            with torch.no_grad():
                y = r + cfg.gamma * (1 - d) * critic_t(o2, actor_t(o2))
            c_loss = F.mse_loss(critic(o, a), y)
            c_opt.zero_grad()
            c_loss.backward()
            c_opt.step()
            a_loss = -critic(o, actor(o)).mean()
            a_opt.zero_grad()
            a_loss.backward()
            a_opt.step()
            soft_update(actor_t, actor, cfg.tau)
            soft_update(critic_t, critic, cfg.tau)

        if (step + 1) % cfg.eval_every == 0:
            print(f"step {step + 1} eval return {evaluate(actor):.2f}")


if __name__ == "__main__":
    main()
