"""Double DQN with a soft-updated target network on a toy chain MDP."""
import copy
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    n_states: int = 10
    hidden: int = 64
    lr: float = 5e-4
    gamma: float = 0.97
    tau: float = 0.02
    batch_size: int = 64
    buffer_size: int = 4096
    total_steps: int = 600
    learn_start: int = 100
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


class ChainEnv:
    """States 0..n-1, action 1 moves right with prob 0.9, action 0 resets to 0."""

    def __init__(self, n_states, seed=0):
        self.n = n_states
        self.rng = np.random.default_rng(seed)

    def encode(self, s):
        v = np.zeros(self.n, dtype=np.float32)
        v[s] = 1.0
        return v

    def reset(self):
        self.s = 0
        self.t = 0
        return self.encode(self.s)

    def step(self, a):
        self.t += 1
        if a == 0:
            reward, self.s = 0.02, 0
        elif self.rng.random() < 0.9:
            self.s = min(self.s + 1, self.n - 1)
            reward = 1.0 if self.s == self.n - 1 else 0.0
        else:
            reward = 0.0
        done = self.s == self.n - 1 or self.t >= 3 * self.n
        return self.encode(self.s), reward, done


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, n_actions)

    def forward(self, obs):
        return self.head(self.body(obs))


class TensorReplay:
    """Ring buffer that lives on the training device."""

    def __init__(self, size, obs_dim, device):
        self.obs = torch.zeros(size, obs_dim, device=device)
        self.next_obs = torch.zeros(size, obs_dim, device=device)
        self.actions = torch.zeros(size, dtype=torch.long, device=device)
        self.rewards = torch.zeros(size, device=device)
        self.dones = torch.zeros(size, device=device)
        self.capacity, self.ptr, self.size = size, 0, 0

    def add(self, obs, action, reward, next_obs, done):
        i = self.ptr
        self.obs[i] = torch.as_tensor(obs, device=self.obs.device)
        self.next_obs[i] = torch.as_tensor(next_obs, device=self.obs.device)
        self.actions[i] = action
        self.rewards[i] = reward
        self.dones[i] = float(done)
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = torch.randint(0, self.size, (batch_size,))
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


class Agent:
    def __init__(self, obs_dim, n_actions, cfg):
        self.cfg = cfg
        self.n_actions = n_actions
        self.online = QNetwork(obs_dim, n_actions, cfg.hidden)
        self.target = copy.deepcopy(self.online)  # expect: DEV016
        self.target.requires_grad_(False)
        self.online.to(cfg.device)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=cfg.lr)

    def act(self, obs, epsilon):
        if np.random.random() < epsilon:
            return int(np.random.randint(self.n_actions))
        obs_t = torch.as_tensor(obs, device=self.cfg.device).unsqueeze(0)
        with torch.no_grad():
            return self.online(obs_t).argmax(dim=1).item()

    def learn(self, batch):
        obs, actions, rewards, next_obs, dones = batch
        q = self.online(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            best_next = self.online(next_obs).argmax(dim=1, keepdim=True)
            next_q = self.target(next_obs).gather(1, best_next).squeeze(1)
            target = rewards + self.cfg.gamma * (1.0 - dones) * next_q
        loss = F.mse_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.soft_update()
        return loss.item()

    @torch.no_grad()
    def soft_update(self):
        tau = self.cfg.tau
        for t_param, param in zip(self.target.parameters(), self.online.parameters()):
            t_param.mul_(1.0 - tau).add_(param, alpha=tau)


def main():
    cfg = Config()
    torch.manual_seed(0)
    np.random.seed(0)
    env = ChainEnv(cfg.n_states)
    agent = Agent(cfg.n_states, 2, cfg)
    replay = TensorReplay(cfg.buffer_size, cfg.n_states, cfg.device)

    obs = env.reset()
    ep_return, returns, losses = 0.0, [], []
    for step in range(cfg.total_steps):
        epsilon = max(0.05, 1.0 - step / (0.6 * cfg.total_steps))
        action = agent.act(obs, epsilon)
        next_obs, reward, done = env.step(action)
        replay.add(obs, action, reward, next_obs, done)
        ep_return += reward
        obs = next_obs
        if done:
            returns.append(ep_return)
            obs, ep_return = env.reset(), 0.0
        if step >= cfg.learn_start:
            losses.append(agent.learn(replay.sample(cfg.batch_size)))
    print(f"episodes {len(returns)}  last returns {returns[-5:]}  mean loss {np.mean(losses):.4f}")


if __name__ == "__main__":
    main()
