"""PPO update for a continuous-action policy on a synthetic rollout; advantages are computed
with GAE into a preallocated tensor."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=5, act_dim=2):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def dist(self, obs):
        return Normal(self.pi(obs), self.log_std.exp())


def gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    T = len(rewards)
    advantages = torch.zeros(T)  # expect: DEV006
    running = 0.0
    for t in reversed(range(T)):
        next_v = last_value if t == T - 1 else values[t + 1]
        delta = rewards[t] + gamma * next_v * (1 - dones[t]) - values[t]
        running = delta + gamma * lam * (1 - dones[t]) * running
        advantages[t] = running
    return advantages


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ac = ActorCritic().to(device)
    opt = torch.optim.Adam(ac.parameters(), lr=3e-4)
    T = 128
    obs = torch.as_tensor(np.random.randn(T, 5), dtype=torch.float32, device=device)
    with torch.no_grad():
        d = ac.dist(obs)
        actions = d.sample()
        old_logp = d.log_prob(actions).sum(-1)
        values = ac.v(obs).squeeze(-1)
    rewards = torch.randn(T, device=device)
    dones = torch.zeros(T, device=device)
    adv = gae(rewards, values, dones, values[-1])
    returns = adv + values
    for epoch in range(4):
        new_d = ac.dist(obs)
        ratio = (new_d.log_prob(actions).sum(-1) - old_logp).exp()
        clipped = torch.clamp(ratio, 0.8, 1.2)
        policy_loss = -torch.min(ratio * adv, clipped * adv).mean()
        value_loss = (ac.v(obs).squeeze(-1) - returns).pow(2).mean()
        loss = policy_loss + 0.5 * value_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
