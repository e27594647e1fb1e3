"""PPO rollout processing: generalised advantage estimation over a rollout collected on the GPU."""
import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=17, act_dim=6):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def forward(self, obs):
        return self.pi(obs), self.log_std.exp(), self.v(obs).squeeze(-1)


def compute_gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    T = rewards.size(0)
    advantages = torch.zeros(T, rewards.size(1))  # expect: DEV006
    gae = 0
    for t in reversed(range(T)):
        next_value = last_value if t == T - 1 else values[t + 1]
        delta = rewards[t] + gamma * next_value * (1 - dones[t]) - values[t]
        gae = delta + gamma * lam * (1 - dones[t]) * gae
        advantages[t] = gae
    returns = advantages + values
    return advantages, returns


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ac = ActorCritic().to(device)
    n_steps, n_envs = 128, 8
    obs = torch.randn(n_steps, n_envs, 17, device=device)
    with torch.no_grad():
        _, _, values = ac(obs)
        _, _, last_value = ac(torch.randn(n_envs, 17, device=device))
    rewards = torch.randn(n_steps, n_envs, device=device)
    dones = (torch.rand(n_steps, n_envs, device=device) < 0.01).float()
    adv, ret = compute_gae(rewards, values, dones, last_value)
    print(adv.mean().item(), ret.std().item())
