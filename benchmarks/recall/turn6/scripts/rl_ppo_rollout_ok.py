"""Correct look-alike: PPO rollout that converts NumPy observations on the policy's device,
keeps GAE in a device tensor, and hands actions back to the environment as NumPy after .cpu()."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, obs_dim=6, n_act=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.pi = nn.Linear(64, n_act)
        self.v = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    policy = Policy().to(device)
    opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
    rng = np.random.default_rng(0)
    T = 64
    obs_np = rng.normal(size=(T, 6)).astype(np.float32)
    obs = torch.as_tensor(obs_np, device=device)
    with torch.no_grad():
        dist, values = policy(obs)
        actions = dist.sample()
        old_logp = dist.log_prob(actions)
    env_actions = actions.cpu().numpy()
    rewards = torch.as_tensor((env_actions == 1).astype(np.float32), device=device)
    adv = torch.zeros(T, device=device)
    running = torch.zeros((), device=device)
    for t in reversed(range(T)):
        nv = values[t + 1] if t + 1 < T else torch.zeros((), device=device)
        running = rewards[t] + 0.99 * nv - values[t] + 0.99 * 0.95 * running
        adv[t] = running
    for _ in range(3):
        dist, v = policy(obs)
        ratio = (dist.log_prob(actions) - old_logp).exp()
        loss = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean() + (v - (adv + values)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(float(loss))


if __name__ == "__main__":
    main()
