"""DDPG on a 1-D point-mass task with target networks and soft updates."""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointMass:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.pos, self.vel, self.t = self.rng.uniform(-1, 1), 0.0, 0
        return self._obs()

    def _obs(self):
        return np.array([self.pos, self.vel], dtype=np.float32)

    def step(self, a):
        self.vel = 0.9 * self.vel + 0.1 * float(np.clip(a, -1, 1)[0])
        self.pos += self.vel
        self.t += 1
        return self._obs(), -abs(self.pos), self.t >= 50


class Buffer:
    def __init__(self, size, obs_dim, act_dim, device):
        self.o = np.zeros((size, obs_dim), np.float32)
        self.a = np.zeros((size, act_dim), np.float32)
        self.r = np.zeros(size, np.float32)
        self.o2 = np.zeros((size, obs_dim), np.float32)
        self.d = np.zeros(size, np.float32)
        self.size, self.ptr, self.n, self.device = size, 0, 0, device

    def store(self, o, a, r, o2, d):
        self.o[self.ptr], self.a[self.ptr], self.r[self.ptr] = o, a, r
        self.o2[self.ptr], self.d[self.ptr] = o2, d
        self.ptr = (self.ptr + 1) % self.size
        self.n = min(self.n + 1, self.size)

    def sample(self, batch_size):
        idx = np.random.randint(0, self.n, batch_size)
        as_t = lambda arr: torch.as_tensor(arr[idx], device=self.device)
        return as_t(self.o), as_t(self.a), as_t(self.r), as_t(self.o2), as_t(self.d)


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, act_dim), nn.Tanh())

    def forward(self, o):
        return self.net(o)


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, o, a):
        return self.net(torch.cat([o, a], -1)).squeeze(-1)


@torch.no_grad()
def soft_update(target, source, tau):
    for tp, sp in zip(target.parameters(), source.parameters()):
        tp.mul_(1 - tau).add_(tau * sp)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = PointMass()
    actor = Actor(2, 1).to(device)
    critic = Critic(2, 1).to(device)
    actor_targ = copy.deepcopy(actor)
    critic_targ = copy.deepcopy(critic)
    for p in list(actor_targ.parameters()) + list(critic_targ.parameters()):
        p.requires_grad_(False)
    pi_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    q_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    buf = Buffer(5000, 2, 1, device)
    gamma = 0.99
    tau = torch.tensor(0.005)  # 0-dim, fine to mix with CUDA params

    o = env.reset()
    for t in range(600):
        with torch.no_grad():
            a = actor(torch.as_tensor(o, device=device)).cpu().numpy()
        a = np.clip(a + 0.1 * np.random.randn(1), -1, 1).astype(np.float32)
        o2, r, d = env.step(a)
        buf.store(o, a, r, o2, float(d))
        o = env.reset() if d else o2

        if buf.n >= 128:
            ob, ab, rb, o2b, db = buf.sample(64)
            with torch.no_grad():
                q_targ = rb + gamma * (1 - db) * critic_targ(o2b, actor_targ(o2b))
            q_loss = F.mse_loss(critic(ob, ab), q_targ)
            q_opt.zero_grad()
            q_loss.backward()
            q_opt.step()

            pi_loss = -critic(ob, actor(ob)).mean()
            pi_opt.zero_grad()
            pi_loss.backward()
            pi_opt.step()
            soft_update(actor_targ, actor, tau)
            soft_update(critic_targ, critic, tau)
            if t % 100 == 0:
                print(f"t={t} q_loss={q_loss.item():.4f} pi_loss={pi_loss.item():.4f}")


if __name__ == "__main__":
    main()
