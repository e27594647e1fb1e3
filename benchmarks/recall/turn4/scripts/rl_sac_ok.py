"""SAC temperature and a NumPy replay buffer with the device handled: log_alpha on the device,
actions copied to the host before they are stored."""
import numpy as np
import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, 2 * act_dim))

    def forward(self, obs):
        mu, log_std = self.net(obs).chunk(2, dim=-1)
        dist = torch.distributions.Normal(mu, log_std.clamp(-5, 2).exp())
        u = dist.rsample()
        a = torch.tanh(u)
        return a, (dist.log_prob(u) - torch.log(1 - a.pow(2) + 1e-6)).sum(-1)


class Agent:
    def __init__(self, obs_dim, act_dim, device, capacity=500):
        self.device = device
        self.actor = Actor(obs_dim, act_dim).to(device)
        self.log_alpha = torch.zeros(1, requires_grad=True, device=device)
        self.alpha_opt = torch.optim.Adam([self.log_alpha], lr=3e-4)
        self.target_entropy = -float(act_dim)
        self.actions = np.zeros((capacity, act_dim), dtype=np.float32)
        self.ptr = 0

    def act(self, obs):
        with torch.no_grad():
            a, _ = self.actor(torch.as_tensor(obs, dtype=torch.float32, device=self.device))
        self.actions[self.ptr] = a.cpu().numpy()
        self.ptr += 1
        return a.cpu().numpy()

    def update_temperature(self, obs):
        _, log_prob = self.actor(obs)
        loss = -(self.log_alpha * (log_prob + self.target_entropy).detach()).mean()
        self.alpha_opt.zero_grad()
        loss.backward()
        self.alpha_opt.step()
        return self.log_alpha.exp().item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    agent = Agent(8, 2, device)
    obs = np.random.randn(8).astype(np.float32)
    for _ in range(5):
        obs = np.clip(obs + agent.act(obs).sum(), -5, 5).astype(np.float32)
    print(agent.update_temperature(torch.randn(16, 8, device=device)), agent.actions[:2])
