"""SAC-style continuous control on a toy 2-D point reacher: tanh-squashed Gaussian actor
rescaled to the action bounds, twin critics with Polyak-averaged targets."""
import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointReach:
    low = np.array([-2.0, -0.5], dtype=np.float32)
    high = np.array([2.0, 0.5], dtype=np.float32)

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.pos = self.rng.uniform(-1, 1, 2).astype(np.float32)
        return self.pos.copy()

    def step(self, a):
        self.pos = np.clip(self.pos + 0.1 * a, -3, 3)
        return self.pos.copy(), -float(np.linalg.norm(self.pos)), False


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, low, high, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mu_head = nn.Linear(hidden, act_dim)
        self.log_std_head = nn.Linear(hidden, act_dim)
        self.register_buffer("action_scale", torch.tensor((high - low) / 2.0, dtype=torch.float32))
        self.register_buffer("action_bias", torch.tensor((high + low) / 2.0, dtype=torch.float32))

    def forward(self, obs):
        h = self.body(obs)
        mu, log_std = self.mu_head(h), self.log_std_head(h).clamp(-5, 2)
        dist = torch.distributions.Normal(mu, log_std.exp())
        u = dist.rsample()
        a = torch.tanh(u)
        log_prob = (dist.log_prob(u) - torch.log(1 - a.pow(2) + 1e-6)).sum(-1)
        return a * self.action_scale + self.action_bias, log_prob


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.q2 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, o, a):
        oa = torch.cat([o, a], dim=-1)
        return self.q1(oa).squeeze(-1), self.q2(oa).squeeze(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--keep-head", action="store_true", help="keep the pretrained mean head")
    parser.add_argument("--tau", type=float, default=0.005)
    parser.add_argument("--alpha", type=float, default=0.2)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    env = PointReach()
    actor = Actor(2, 2, env.low, env.high, args.hidden)
    if not args.keep_head:
        actor.mu_head = nn.Linear(args.hidden, 2)
    actor.to(device)
    critic = Critic(2, 2, args.hidden).to(device)
    critic_target = copy.deepcopy(critic)
    for p in critic_target.parameters():
        p.requires_grad_(False)
    actor_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=3e-4)

    buf_o, buf_a, buf_r, buf_o2 = [], [], [], []
    obs = env.reset()
    for step in range(args.steps):
        with torch.no_grad():
            action, _ = actor(torch.as_tensor(obs, device=device).unsqueeze(0))
        a_np = action.squeeze(0).cpu().numpy()
        next_obs, reward, _ = env.step(a_np)
        buf_o.append(obs); buf_a.append(a_np); buf_r.append(reward); buf_o2.append(next_obs)
        obs = next_obs if step % 50 else env.reset()
        if len(buf_o) < 64:
            continue
        idx = np.random.randint(0, len(buf_o), 64)
        o = torch.as_tensor(np.array(buf_o)[idx], device=device)
        a = torch.as_tensor(np.array(buf_a)[idx], device=device)
        r = torch.as_tensor(np.array(buf_r, dtype=np.float32)[idx], device=device)
        o2 = torch.as_tensor(np.array(buf_o2)[idx], device=device)
        with torch.no_grad():
            a2, logp2 = actor(o2)
            tq1, tq2 = critic_target(o2, a2)
            target = r + 0.99 * (torch.min(tq1, tq2) - args.alpha * logp2)
        q1, q2 = critic(o, a)
        critic_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)
        critic_opt.zero_grad(); critic_loss.backward(); critic_opt.step()

        a_new, logp = actor(o)
        actor_loss = (args.alpha * logp - torch.min(*critic(o, a_new))).mean()
        actor_opt.zero_grad(); actor_loss.backward(); actor_opt.step()
        with torch.no_grad():
            for p, tp in zip(critic.parameters(), critic_target.parameters()):
                tp.mul_(1 - args.tau).add_(args.tau * p)
        if step % 100 == 0:
            print(f"step {step} critic {critic_loss.item():.3f} actor {actor_loss.item():.3f}")


if __name__ == "__main__":
    main()
