"""Soft actor-critic on a toy continuous task; the second GPU is chosen to leave the first one to the simulator. Resumable."""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * act_dim))

    def forward(self, obs):
        mu, log_std = self.net(obs).chunk(2, dim=-1)
        std = log_std.clamp(-5, 2).exp()
        u = mu + std * torch.randn_like(mu)
        a = torch.tanh(u)
        logp = (-0.5 * ((u - mu) / std) ** 2 - std.log() - 0.9189).sum(-1) - torch.log(1 - a.pow(2) + 1e-6).sum(-1)
        return a, logp


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.q2 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        x = torch.cat([obs, act], dim=-1)
        return self.q1(x).squeeze(-1), self.q2(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--resume", default=None)
    ap.add_argument("--save", default="/tmp/r_sac.pt")
    args = ap.parse_args()

    device = torch.device("cuda:1" if torch.cuda.is_available() else "cpu")  # expect: DEV018
    obs_dim, act_dim, gamma, tau = 6, 2, 0.99, 0.005
    actor, critic = Actor(obs_dim, act_dim), Critic(obs_dim, act_dim)
    if args.resume:
        state = torch.load(args.resume)  # expect: DEV008
        actor.load_state_dict(state["actor"])
        critic.load_state_dict(state["critic"])
    actor.to(device)
    critic.to(device)
    critic_target = copy.deepcopy(critic).requires_grad_(False)
    log_alpha = torch.zeros(1, device=device, requires_grad=True)
    a_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
    c_opt = torch.optim.Adam(critic.parameters(), lr=3e-4)
    al_opt = torch.optim.Adam([log_alpha], lr=3e-4)

    for step in range(args.steps):
        obs = torch.randn(64, obs_dim, device=device)
        act = torch.rand(64, act_dim, device=device) * 2 - 1
        rew = -(act - obs[:, :act_dim].tanh()).pow(2).sum(-1)
        next_obs = obs + 0.1 * torch.randn_like(obs)
        with torch.no_grad():
            next_a, next_logp = actor(next_obs)
            tq1, tq2 = critic_target(next_obs, next_a)
            target = rew + gamma * (torch.min(tq1, tq2) - log_alpha.exp() * next_logp)
        q1, q2 = critic(obs, act)
        c_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)
        c_opt.zero_grad()
        c_loss.backward()
        c_opt.step()

        a, logp = actor(obs)
        a_loss = (log_alpha.exp().detach() * logp - torch.min(*critic(obs, a))).mean()
        a_opt.zero_grad()
        a_loss.backward()
        a_opt.step()
        al_loss = -(log_alpha * (logp.detach() - act_dim)).mean()
        al_opt.zero_grad()
        al_loss.backward()
        al_opt.step()
        with torch.no_grad():
            for tp, p in zip(critic_target.parameters(), critic.parameters()):
                tp.mul_(1 - tau).add_(tau * p)
    torch.save({"actor": actor.state_dict(), "critic": critic.state_dict()}, args.save)
    print("saved", args.save, c_loss.item())


if __name__ == "__main__":
    main()
