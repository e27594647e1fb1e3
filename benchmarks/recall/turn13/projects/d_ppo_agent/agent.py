"""Actor-critic with a running observation normaliser kept in registered buffers."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.register_buffer("obs_mean", torch.zeros(obs_dim))
        self.register_buffer("obs_var", torch.ones(obs_dim))
        self.register_buffer("obs_count", torch.tensor(1e-4))
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    @torch.no_grad()
    def update_obs_stats(self, obs_batch):
        batch = torch.as_tensor(obs_batch, dtype=torch.float32, device=self.obs_mean.device)
        b_mean, b_var, n = batch.mean(0), batch.var(0, unbiased=False), batch.size(0)
        delta, total = b_mean - self.obs_mean, self.obs_count + n
        self.obs_mean += delta * n / total
        self.obs_var.copy_((self.obs_var * self.obs_count + b_var * n
                            + delta.pow(2) * self.obs_count * n / total) / total)
        self.obs_count.copy_(total)

    def forward(self, obs):
        h = self.body((obs - self.obs_mean) / self.obs_var.sqrt().clamp(min=1e-4))
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)

    @torch.no_grad()
    def act(self, obs_np):
        obs = torch.as_tensor(obs_np, dtype=torch.float32, device=self.obs_mean.device)
        dist, value = self(obs.unsqueeze(0))
        action = dist.sample()
        return int(action.item()), dist.log_prob(action).item(), value.item()
