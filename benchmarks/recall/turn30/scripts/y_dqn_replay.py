"""DQN on a toy corridor: numpy replay buffer, epsilon-greedy, target network."""
import argparse
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Corridor:
    """Start in the middle of a 1-D corridor; +1 at the right end, small step cost."""

    def __init__(self, n=8):
        self.n = n
        self.pos = n // 2

    def reset(self):
        self.pos = self.n // 2
        return self._obs()

    def _obs(self):
        o = np.zeros(self.n, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos in (0, self.n - 1)
        reward = 1.0 if self.pos == self.n - 1 else -0.01
        return self._obs(), reward, done


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.size, self.ptr = capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i], self.actions[i], self.rewards[i] = o, a, r
        self.next_obs[i], self.dones[i] = o2, d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size):
        idx = np.random.randint(0, self.size, size=batch_size)
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, x):
        return self.net(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--target-every", type=int, default=50)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    env = Corridor()
    q_net = QNet(env.n, 2)
    target_net = copy.deepcopy(q_net)  # expect: DEV016
    q_net.to(device)
    target_net.eval()
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    buffer = ReplayBuffer(2000, env.n)

    step = 0
    for episode in range(args.episodes):
        obs = env.reset()
        ep_return = 0.0
        for _ in range(40):
            eps = max(0.05, 1.0 - step / 300)
            if random.random() < eps:
                action = torch.randint(0, 2, (1,)).item()
            else:
                with torch.no_grad():
                    q = q_net(torch.as_tensor(obs, device=device).unsqueeze(0))
                action = int(q.argmax(dim=1).item())
            next_obs, reward, done = env.step(action)
            buffer.add(obs, action, reward, next_obs, float(done))
            obs, ep_return, step = next_obs, ep_return + reward, step + 1

            if buffer.size >= args.batch_size:
                o, a, r, o2, d = buffer.sample(args.batch_size)
                o = torch.as_tensor(o).to(device)
                o2 = torch.as_tensor(o2).to(device)
                a = torch.as_tensor(a).to(device)
                r = torch.as_tensor(r)  # expect: DEV006
                d = torch.as_tensor(d, device=device)
                q_sa = q_net(o).gather(1, a.unsqueeze(1)).squeeze(1)
                with torch.no_grad():
                    q_next = target_net(o2).max(dim=1).values
                    target = r + args.gamma * (1.0 - d) * q_next
                loss = F.smooth_l1_loss(q_sa, target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()

            if step % args.target_every == 0:
                target_net.load_state_dict(q_net.state_dict())
            if done:
                break
        print(f"episode {episode} return {ep_return:.2f} eps {eps:.2f}")


if __name__ == "__main__":
    main()
