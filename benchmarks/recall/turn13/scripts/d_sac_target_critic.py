"""Soft actor-critic with twin Q networks and a Polyak-averaged target critic on a NumPy env.

From SAC/TD3 threads about target networks ("Expected all tensors to be on the same device" in
the soft update `target_param.data.copy_(tau * param.data + ...)` when the target copy was made
before the online critic went to the GPU) and from agents whose `select_action` builds the
observation tensor on the CPU while the actor lives on cuda:0.
"""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReachEnv:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.t, self.goal = 0, self.rng.uniform(-1, 1, 2).astype(np.float32)
        self.pos = np.zeros(2, dtype=np.float32)
        return np.concatenate([self.pos, self.goal])

    def step(self, a):
        self.t += 1
        self.pos = (self.pos + 0.1 * np.asarray(a, dtype=np.float32)).clip(-1.5, 1.5)
        r = -float(np.linalg.norm(self.pos - self.goal))
        return np.concatenate([self.pos, self.goal]), r, self.t >= 40, {}


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.mu, self.log_std = nn.Linear(hidden, act_dim), nn.Linear(hidden, act_dim)

    def sample(self, obs):
        h = self.net(obs)
        std = self.log_std(h).clamp(-5, 2).exp()
        u = self.mu(h) + std * torch.randn_like(std)
        a = torch.tanh(u)
        logp = (-0.5 * ((u - self.mu(h)) / std) ** 2 - std.log() - 0.919).sum(-1)
        return a, logp - torch.log(1 - a.pow(2) + 1e-6).sum(-1)


class TwinQ(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        def q():
            return nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.q1, self.q2 = q(), q()

    def forward(self, obs, act):
        x = torch.cat([obs, act], -1)
        return self.q1(x).squeeze(-1), self.q2(x).squeeze(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    env, obs_dim, act_dim = ReachEnv(), 4, 2
    actor = Actor(obs_dim, act_dim)
    critic = TwinQ(obs_dim, act_dim)
    critic_target = copy.deepcopy(critic)  # expect: DEV016
    actor.to(device)
    critic.to(device)
    a_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
    c_opt = torch.optim.Adam(critic.parameters(), lr=3e-4)
    alpha, gamma, tau = 0.2, 0.99, 0.005
    size, cap = 0, 5000
    store = {k: np.zeros((cap, d), np.float32) for k, d in
             (("o", obs_dim), ("a", act_dim), ("r", 1), ("o2", obs_dim), ("d", 1))}

    obs = env.reset()
    for step in range(600):
        with torch.no_grad():
            action, _ = actor.sample(torch.as_tensor(obs).unsqueeze(0))  # expect: DEV002
        action = action.squeeze(0).cpu().numpy()
        obs2, r, done, _ = env.step(action)
        for k, v in (("o", obs), ("a", action), ("r", r), ("o2", obs2), ("d", float(done))):
            store[k][size % cap] = v
        size += 1
        obs = env.reset() if done else obs2
        if size < 128:
            continue
        idx = np.random.randint(0, min(size, cap), 64)
        o, a, r_b, o2, d = (torch.as_tensor(store[k][idx], device=device) for k in ("o", "a", "r", "o2", "d"))
        with torch.no_grad():
            a2, logp2 = actor.sample(o2)
            tq1, tq2 = critic_target(o2, a2)
            y = r_b.squeeze(-1) + gamma * (1 - d.squeeze(-1)) * (torch.min(tq1, tq2) - alpha * logp2)
        q1, q2 = critic(o, a)
        c_loss = F.mse_loss(q1, y) + F.mse_loss(q2, y)
        c_opt.zero_grad()
        c_loss.backward()
        c_opt.step()
        a_new, logp = actor.sample(o)
        a_loss = (alpha * logp - torch.min(*critic(o, a_new))).mean()
        a_opt.zero_grad()
        a_loss.backward()
        a_opt.step()
        with torch.no_grad():
            for p, tp in zip(critic.parameters(), critic_target.parameters()):
                tp.mul_(1 - tau).add_(tau * p)
        if step % 200 == 0:
            print(f"step {step}: critic {c_loss.item():.3f} actor {a_loss.item():.3f}")


if __name__ == "__main__":
    main()
