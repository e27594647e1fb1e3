"""DQN on a toy line-walk environment with a numpy replay buffer.

Written from RL bug threads such as "Not all tensors on same device"
(thu-ml/tianshou#589, a custom env returning numpy observations) and "Fix
observation not being copied to GPU in evaluation"
(ikostrikov/pytorch-a2c-ppo-acktr-gail#118): the target network is a deepcopy
taken before the online network is moved, and the acting path feeds the raw
numpy observation to the network.
"""
import copy
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class LineWalk:
    """One-hot position on a line; reward 1 when the right end is reached."""

    def __init__(self, n=8, seed=0):
        self.n = n
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.pos = int(self.rng.integers(0, self.n // 2))
        return self._obs()

    def _obs(self):
        obs = np.zeros(self.n, dtype=np.float32)
        obs[self.pos] = 1.0
        return obs

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.n - 1
        return self._obs(), float(done), done


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.idx, self.full = capacity, 0, False

    def add(self, obs, action, reward, next_obs, done):
        i = self.idx
        self.obs[i], self.actions[i], self.rewards[i] = obs, action, reward
        self.next_obs[i], self.dones[i] = next_obs, float(done)
        self.idx = (i + 1) % self.capacity
        self.full = self.full or self.idx == 0

    def __len__(self):
        return self.capacity if self.full else self.idx

    def sample(self, batch_size, device):
        idx = np.random.randint(0, len(self), size=batch_size)
        fields = (self.obs, self.actions, self.rewards, self.next_obs, self.dones)
        return tuple(torch.as_tensor(f[idx], device=device) for f in fields)


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


def main():
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    env = LineWalk()
    q_net = QNet(env.n, 2)
    target_net = copy.deepcopy(q_net)  # expect: DEV016
    q_net.to(device)
    target_net.eval()
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    buffer = ReplayBuffer(2000, env.n)

    gamma, eps, batch_size = 0.95, 1.0, 64
    obs, episode_return, returns = env.reset(), 0.0, []
    for step in range(800):
        if random.random() < eps:
            action = random.randrange(2)
        else:
            with torch.no_grad():
                q = q_net(torch.from_numpy(obs).unsqueeze(0))  # expect: DEV002
            action = int(q.argmax(dim=1).item())
        next_obs, reward, done = env.step(action)
        buffer.add(obs, action, reward, next_obs, done)
        episode_return += reward
        if done:
            returns.append(episode_return)
            obs, episode_return = env.reset(), 0.0
        else:
            obs = next_obs
        eps = max(0.05, eps * 0.99)

        if len(buffer) >= batch_size:
            o, a, r, o2, d = buffer.sample(batch_size, device)
            q_sa = q_net(o).gather(1, a.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                next_q = target_net(o2).max(dim=1).values
                target = r + gamma * (1.0 - d) * next_q
            loss = F.smooth_l1_loss(q_sa, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        if step % 100 == 0:
            target_net.load_state_dict(q_net.state_dict())
            print(f"step {step} eps {eps:.2f} episodes {len(returns)}")

    print("mean return of last 10 episodes:", float(np.mean(returns[-10:] or [0.0])))


if __name__ == "__main__":
    main()
