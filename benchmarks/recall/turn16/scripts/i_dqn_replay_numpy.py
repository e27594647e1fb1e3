"""Vanilla DQN on a tiny corridor environment.

Observations come out of the env as numpy arrays and go into a numpy ring
buffer; batches are turned into tensors when they are sampled.

    python i_dqn_replay_numpy.py --episodes 30
"""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Corridor:
    """Start in the middle of a 1-D corridor; +1 at the right end, -1 at the left."""

    def __init__(self, length=9, max_steps=40):
        self.length = length
        self.max_steps = max_steps
        self.n_actions = 2

    def _obs(self):
        o = np.zeros(self.length, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def reset(self):
        self.pos = self.length // 2
        self.t = 0
        return self._obs()

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        self.t += 1
        if self.pos == self.length - 1:
            return self._obs(), 1.0, True
        if self.pos == 0:
            return self._obs(), -1.0, True
        return self._obs(), -0.01, self.t >= self.max_steps


class ReplayBuffer:
    def __init__(self, capacity, obs_dim, device):
        self.capacity = capacity
        self.device = device
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.ptr = 0
        self.size = 0

    def add(self, obs, action, reward, next_obs, done):
        self.obs[self.ptr] = obs
        self.actions[self.ptr] = action
        self.rewards[self.ptr] = reward
        self.next_obs[self.ptr] = next_obs
        self.dones[self.ptr] = float(done)
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def __len__(self):
        return self.size

    def sample(self, batch_size):
        idx = np.random.randint(0, self.size, size=batch_size)
        obs = torch.as_tensor(self.obs[idx], device=self.device)
        actions = torch.as_tensor(self.actions[idx], device=self.device)
        rewards = torch.from_numpy(self.rewards[idx])  # expect: DEV006
        next_obs = torch.as_tensor(self.next_obs[idx], device=self.device)
        dones = torch.as_tensor(self.dones[idx], device=self.device)
        return obs, actions, rewards, next_obs, dones


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(obs_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_actions),
        )

    def forward(self, x):
        return self.net(x)


def select_action(qnet, obs, epsilon, n_actions):
    if random.random() < epsilon:
        return random.randrange(n_actions)
    with torch.no_grad():
        state = torch.tensor(obs, dtype=torch.float32).unsqueeze(0)  # expect: DEV006
        return int(qnet(state).argmax(dim=1).item())


def td_update(qnet, target_net, optimizer, batch, gamma):
    obs, actions, rewards, next_obs, dones = batch
    q = qnet(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_q = target_net(next_obs).max(dim=1).values
        target = rewards + gamma * (1.0 - dones) * next_q
    loss = F.smooth_l1_loss(q, target)
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(qnet.parameters(), 10.0)
    optimizer.step()
    return loss.item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--episodes", type=int, default=30)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--target-every", type=int, default=100)
    p.add_argument("--cpu", action="store_true")
    args = p.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)

    env = Corridor()
    obs_dim = env.length
    qnet = QNet(obs_dim, env.n_actions).to(device)
    target_net = QNet(obs_dim, env.n_actions).to(device)
    target_net.load_state_dict(qnet.state_dict())
    optimizer = torch.optim.Adam(qnet.parameters(), lr=args.lr)
    buffer = ReplayBuffer(5000, obs_dim, device)

    step = 0
    for ep in range(args.episodes):
        obs = env.reset()
        done = False
        ep_return = 0.0
        while not done:
            epsilon = max(0.05, 1.0 - step / 500)
            action = select_action(qnet, obs, epsilon, env.n_actions)
            next_obs, reward, done = env.step(action)
            buffer.add(obs, action, reward, next_obs, done)
            obs = next_obs
            ep_return += reward
            step += 1
            if len(buffer) >= args.batch_size:
                td_update(qnet, target_net, optimizer, buffer.sample(args.batch_size), args.gamma)
            if step % args.target_every == 0:
                target_net.load_state_dict(qnet.state_dict())
        if ep % 10 == 0:
            print(f"episode {ep:3d}  return {ep_return:+.2f}  eps {epsilon:.2f}")


if __name__ == "__main__":
    main()
