"""DQN with experience replay and a periodically synced target network on a
toy corridor environment whose observations are NumPy arrays."""
import copy
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Corridor:
    """Walk right to reach the goal; observation is a one-hot position plus noise."""

    def __init__(self, length=8, seed=0):
        self.length = length
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        obs = np.zeros(self.length, dtype=np.float32)
        obs[self.pos] = 1.0
        return obs + self.rng.normal(0, 0.01, self.length).astype(np.float32)

    def step(self, action):
        self.pos = min(self.length - 1, max(0, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.length - 1
        return self._obs(), (1.0 if done else -0.01), done


class ReplayBuffer:
    def __init__(self, capacity, device):
        self.memory = deque(maxlen=capacity)
        self.device = device

    def push(self, *transition):
        self.memory.append(transition)

    def sample(self, batch_size):
        batch = random.sample(self.memory, batch_size)
        obs, actions, rewards, next_obs, dones = map(np.array, zip(*batch))
        obs = torch.as_tensor(obs, device=self.device)
        actions = torch.as_tensor(actions, dtype=torch.long, device=self.device)
        rewards = torch.as_tensor(rewards, dtype=torch.float32, device=self.device)
        next_obs = torch.as_tensor(next_obs, device=self.device)
        dones = torch.as_tensor(dones, dtype=torch.float32)  # expect: DEV006
        return obs, actions, rewards, next_obs, dones

    def __len__(self):
        return len(self.memory)


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, x):
        return self.net(x)


def select_action(q_net, obs, eps, device):
    if random.random() < eps:
        return random.randrange(2)
    with torch.no_grad():
        return q_net(torch.as_tensor(obs, device=device).unsqueeze(0)).argmax(1).item()


def main():
    random.seed(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = Corridor()
    q_net = QNet(env.length, 2)
    target_net = copy.deepcopy(q_net)  # expect: DEV016
    target_net.eval()
    q_net.to(device)
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    buffer = ReplayBuffer(2000, device)
    gamma, batch_size, sync_every = 0.99, 32, 50

    step = 0
    for episode in range(6):
        obs, done, ret = env.reset(), False, 0.0
        for _ in range(60):
            eps = max(0.05, 1.0 - step / 300)
            action = select_action(q_net, obs, eps, device)
            next_obs, reward, done = env.step(action)
            buffer.push(obs, action, reward, next_obs, float(done))
            obs, ret, step = next_obs, ret + reward, step + 1
            if len(buffer) >= batch_size:
                o, a, r, o2, d = buffer.sample(batch_size)
                q = q_net(o).gather(1, a.unsqueeze(1)).squeeze(1)
                with torch.no_grad():
                    target = r + gamma * target_net(o2).max(1).values * (1 - d)
                loss = F.smooth_l1_loss(q, target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            if step % sync_every == 0:
                target_net.load_state_dict(q_net.state_dict())
            if done:
                break
        print(f"episode {episode} return {ret:.2f} steps {step}")


if __name__ == "__main__":
    main()
